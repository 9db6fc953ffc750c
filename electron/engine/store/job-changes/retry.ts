// Queueing a job again under its own id: a retry (a failed or cancelled job) or `lanes restart
// --in-place` (any finished job). The statement says from which states; the job gets a fresh set of
// attempts, numbered on from those it had.
import type { JobSummary } from '../../../../shared/model.js';
import { toSummary } from '../job-rows.js';
import type { Change } from './change.js';

/** A failed or cancelled job queued again; null when it is neither. */
export const retry = (c: Change, id: number): JobSummary | null => queueAgain(c, id, c.s.retry);

/** A finished job queued again under its own id; null when it is not finished. */
export const requeueFinished = (c: Change, id: number): JobSummary | null => queueAgain(c, id, c.s.requeueFinished);

function queueAgain(c: Change, id: number, statement: typeof c.s.retry): JobSummary | null {
  const from = c.s.state.get(id)?.state;
  const r = statement.get(id);
  const summary = r ? toSummary(r) : null;
  if (summary && from) c.moves.push({ lane: summary.lane, from, to: 'queued' });
  c.waits.changed();
  return summary;
}
