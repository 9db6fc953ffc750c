// Queueing a job again under its own id: a retry (a failed or cancelled job) or `lanes restart
// --in-place` (any finished job). The statement says from which states; the job gets a fresh set of
// attempts, numbered on from those it had. A job that runs after one that can no longer succeed
// is refused, in the words `add --after` uses (job-waits.ts): queued again, it would wait for ever.
// The check is made in the transaction that queues it, so nothing can fail in between.
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
  const r = statement.get(id);
  const summary = r ? toSummary(r) : null;
  if (summary) c.moves.push({ lane: summary.lane, from, to: 'queued' });
  c.waits.changed();
  return summary;
}

/**
 * `lanes restart --in-place` of many: every one queued again under its own id in this one write,
 * or none — a refusal, in words — when one is no longer finished, or runs after a job that can no
 * longer succeed and is not queued again with it (`together`: the whole restart, of which these may be a chunk). Nothing throws, so the other writes that share
 * the transaction (group-sync.ts) are never undone for this one.
 */
export function requeueFinishedAll(c: Change, ids: readonly number[], together: ReadonlySet<number> = new Set(ids)): { jobs: JobSummary[] } | { refused: string } {
  const finished: readonly JobState[] = ['succeeded', 'failed', 'cancelled'];
  const from = new Map<number, JobState>();
  for (const id of ids) {
    const state = c.s.state.get(id)?.state;
    if (state === undefined || !finished.includes(state)) return { refused: `job ${id} ${state === undefined ? 'is gone' : `is ${state}`}; only a finished job can be restarted, and nothing was restarted` };
    from.set(id, state);
  }
  const [lost] = c.waits.lostDependencies(ids, together);
  if (lost) return { refused: `job ${lost[0]} runs after job ${lost[1].id}: ${cannotRunAfter(lost[1])}; nothing was restarted` };
  const jobs: JobSummary[] = [];
  for (const id of ids) {
    const r = c.s.requeueFinished.get(id);
    if (!r) continue;
    const job = toSummary(r);
    c.moves.push({ lane: job.lane, from: from.get(id)!, to: 'queued' });
    jobs.push(job);
  }
  if (jobs.length > 0) c.waits.changed();
  return { jobs };
}
