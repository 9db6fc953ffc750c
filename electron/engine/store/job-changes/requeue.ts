// A running job whose run was interrupted (its worker died, was given up on, or was stopped with
// the engine): given back to the queue, or failed when it is out of attempts, keeping why. A job
// the engine itself died under too often is failed instead, as a suspect, until a person retries it.
import type { JobSummary } from '../../../../shared/model.js';
import type { RunningRow } from '../job-statements.js';
import { toSummary } from '../job-rows.js';
import type { Interruption } from '../job-types.js';
import { clipError, type Change } from './change.js';

export function requeue(c: Change, job: RunningRow, how: Interruption, now: number, interrupted: number): JobSummary | null {
  c.s.attempt.run(now, 'interrupted', null, how.why, job.id);
  const r = c.s.requeue.get({ refund: how.refund ? 1 : 0, now, retryAt: how.retryAt, error: clipError(how.why), interrupted, id: job.id, worker: job.worker });
  const summary = c.ends(r ? toSummary(r) : null);
  if (summary) c.moves.push({ lane: summary.lane, from: 'running', to: summary.state });
  return summary;
}

export function failSuspect(c: Change, job: RunningRow, why: string, now: number): JobSummary | null {
  c.s.attempt.run(now, 'interrupted', null, why, job.id);
  const r = c.s.failSuspect.get(now, why, job.interrupted + 1, job.id);
  const summary = c.ends(r ? toSummary(r) : null);
  if (summary) c.moves.push({ lane: summary.lane, from: 'running', to: 'failed' });
  return summary;
}
