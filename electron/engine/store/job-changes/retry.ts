// Queueing a failed or cancelled job again under its own id (`lanes restart --in-place` of any
// finished job is restart.ts). The job gets a fresh set of attempts, numbered on from those it
// had. A job that runs after one that can no longer succeed is refused, in the words `add
// --after` uses (job-waits.ts): queued again, it would wait for ever. The check is made in the
// transaction that queues it, so nothing can fail in between.
import type { JobState, JobSummary } from '../../../../shared/model.js';
import { conflict } from '../../../../shared/errors.js';
import { toSummary } from '../job-rows.js';
import { cannotRunAfter } from '../job-waits.js';
import type { Change } from './change.js';

/** A failed or cancelled job queued again; null when it is neither. */
export const retry = (c: Change, id: number): JobSummary | null => queueAgain(c, id, c.s.retry, ['failed', 'cancelled']);

function queueAgain(c: Change, id: number, statement: typeof c.s.retry, states: readonly JobState[]): JobSummary | null {
  const from = c.s.state.get(id)?.state;
  if (from === undefined || !states.includes(from)) return null;
  const lost = c.waits.lostDependencies([id]).get(id);
  // No field named: the job asked for is fine; the job it runs after is what stands in the way.
  if (lost) throw conflict(cannotRunAfter(lost));
  const r = statement.get({ id, now: Date.now() });
  const summary = r ? toSummary(r) : null;
  if (summary) c.moves.push({ lane: summary.lane, from, to: 'queued' });
  c.waits.changed();
  return summary;
}

