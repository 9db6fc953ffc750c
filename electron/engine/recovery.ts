// After a crash or kill of the engine, jobs it had running are queued again (the attempt counts,
// and the retry waits its backoff), and whatever processes they left behind are ended. A job the
// engine died under twice in a row is failed instead, as a suspect: it may be what brings the
// engine down, and running it a third time would only do that again.
import type { JobSummary } from '../../shared/model.js';
import { backoffMs } from './backoff.js';
import type { JobStore } from './store/jobs.js';

/** Interrupted this many times in a row, a job is failed as a suspect rather than run again. */
export const SUSPECT_AFTER = 2;

export function recoverInterrupted(jobs: JobStore, now: number, endProcesses: (jobId: number, attempt: number) => void, log: (line: string) => void): JobSummary[] {
  const running = jobs.allRunning();
  const changed: JobSummary[] = [];
  for (const job of running) {
    endProcesses(job.id, job.attempts);
    const times = job.interrupted + 1;
    const row =
      times >= SUSPECT_AFTER
        ? jobs.failSuspect(job, `not run again: the engine stopped unexpectedly ${times} times in a row while this job ran, so it may be what stops it; retry it to run it again`, now)
        : jobs.requeue(job, { why: `interrupted: the engine stopped during attempt ${job.attempts}`, retryAt: now + backoffMs(job.attempts) }, now, times);
    if (row) changed.push(row);
  }
  const failed = changed.filter((j) => j.state === 'failed').length;
  if (running.length > 0) log(`requeued ${running.length - failed} job(s) interrupted when the engine last stopped${failed ? `; failed ${failed} it died under twice` : ''}`);
  return changed;
}
