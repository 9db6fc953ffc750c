// A run ended, as its worker reports it: recorded only if the job is still running there under
// that attempt (a late answer from a worker already given up on changes nothing). A failed run
// with attempts left goes back in the queue to wait out its retry; every run that did not succeed
// is kept in the job's history.
import type { JobSummary } from '../../../../shared/model.js';
import { toSummary } from '../job-rows.js';
import type { Report } from '../job-types.js';
import { clipError, type Change } from './change.js';

export function finish(c: Change, d: Report, now: number): JobSummary | null {
  const o = d.outcome;
  const error = clipError(o.error);
  const row = c.s.finish.get({
    state: o.state,
    now,
    retryAt: d.retryAt,
    // The worker said no retry would do better (it refused the payload): failed for good now.
    final: o.final === true ? 1 : 0,
    exitCode: o.exitCode,
    error,
    result: o.result === undefined ? null : JSON.stringify(o.result),
    loadMs: o.loadMs ?? null,
    id: d.jobId,
    worker: d.worker,
    attempt: d.attempt,
  });
  if (!row) return null;
  const job = toSummary(row);
  c.moves.push({ lane: job.lane, from: 'running', to: job.state });
  if (o.state !== 'succeeded') c.s.attempt.run(now, o.state, o.exitCode, error, d.jobId);
  return c.ends(job);
}
