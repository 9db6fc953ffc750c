// The words a dependent fails with when a job it runs after ends badly ("job 41 failed"), in one
// place: the engine writes them into the dependent's error, and the window reads them back to
// tell a dependent that never ran from a job that ran and failed. One definition, so the two
// can never drift apart.
import type { JobState, JobSummary } from './model.js';

/** The words a dependent fails with when `id`, which it runs after, ends as `state`. */
export function dependencyEnded(id: number, state: JobState | null): string {
  return state === 'cancelled' ? `job ${id} was cancelled` : state === 'failed' ? `job ${id} failed` : `job ${id} did not succeed`;
}

const ENDED = /^job (\d{1,16}) (failed|was cancelled|did not succeed)$/;

/**
 * The job a failed dependent never ran for, with the words that say why; null for any other job
 * (one that ran, or failed in words of its own).
 */
export function blockedBy(job: Pick<JobSummary, 'state' | 'error'>): { id: number; words: string } | null {
  if (job.state !== 'failed' || job.error === null) return null;
  const m = ENDED.exec(job.error);
  return m ? { id: Number(m[1]), words: job.error } : null;
}
