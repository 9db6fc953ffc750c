// A dependent that never ran: the words it fails with when a job it runs after ends badly ("job
// 41 failed"), written by the engine into its error, and how any reader tells it from a job that
// ran and failed — by the fact the engine stores with it (`blockedBy`), never by those words, which
// a worker's own error may echo ("job 3: upload failed").
import type { JobState, JobSummary } from './model.js';

/** The words a dependent fails with when `id`, which it runs after, ends as `state`. */
export function dependencyEnded(id: number, state: JobState | null): string {
  return state === 'cancelled' ? `job ${id} was cancelled` : state === 'failed' ? `job ${id} failed` : `job ${id} did not succeed`;
}

/**
 * The job a failed dependent never ran for, with the words that say why; null for any other job
 * (one that ran, or failed in words of its own).
 */
export function blockedBy(job: Pick<JobSummary, 'state' | 'error' | 'blockedBy'>): { id: number; words: string } | null {
  if (job.state !== 'failed' || job.blockedBy === undefined) return null;
  return { id: job.blockedBy, words: job.error ?? dependencyEnded(job.blockedBy, null) };
}
