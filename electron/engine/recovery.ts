// After a crash or kill of the engine, jobs it had running are queued again (the attempt
// counts), and whatever processes they left behind are ended.
import { readFileSync } from 'node:fs';
import { signalGroup } from '../worker/process-group.js';
import type { JobStore } from './store/jobs.js';

export function recoverInterrupted(jobs: JobStore, now: number, log: (line: string) => void): void {
  const running = jobs.allRunningJobs();
  for (const job of running) {
    if (job.pgid !== null && isJobsGroup(job.pgid, job.id)) signalGroup(job.pgid, 'SIGKILL');
    jobs.requeue(job, `interrupted: the engine stopped during attempt ${job.attempts}`, now);
  }
  if (running.length > 0) log(`requeued ${running.length} job(s) interrupted when the engine last stopped`);
}

/**
 * A recorded process group id may have been reused since; only a group whose leader still
 * carries this job's id in its environment is ours to kill. Where that cannot be read (not
 * Linux), leave it: the worker already ended its job's group when it lost its engine.
 */
function isJobsGroup(pgid: number, jobId: number): boolean {
  if (process.platform !== 'linux') return false;
  try {
    return readFileSync(`/proc/${pgid}/environ`, 'latin1').split('\0').includes(`LANES_JOB_ID=${jobId}`);
  } catch {
    return false;
  }
}
