// Cancelling a job before it runs: only a queued one changes (a running job is ended by its
// worker, which then reports the run cancelled).
import type { JobSummary } from '../../../../shared/model.js';
import { toSummary } from '../job-rows.js';
import type { Change } from './change.js';

export function cancelQueued(c: Change, id: number, now: number): JobSummary | null {
  const r = c.s.cancelQueued.get(now, id);
  const summary = c.ends(r ? toSummary(r) : null);
  if (summary) c.moves.push({ lane: summary.lane, from: 'queued', to: 'cancelled' });
  c.waits.changed();
  return summary;
}
