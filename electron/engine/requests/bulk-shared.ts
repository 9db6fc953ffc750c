// Cancel and retry of many jobs, for the part of a request that falls in shared lanes. Their
// jobs live in a BullMQ queue, so they are changed one by one through the queue interface
// (a mark, a retry: each one BullMQ call), a page at a time; a job running on another engine is
// asked to stop there. The local part of the same request stays with the store's chunks (bulk.ts).
import type { JobState, JobSummary } from '../../../shared/model.js';
import { BULK_CHUNK } from '../store/job-statements.js';
import type { BulkPort } from './context.js';
import { isSharedId } from '../store/job-ids.js';

/** Pages of one state read per lane and request: a bound on one request's work, however large the queue. */
const PAGES_MAX = 200;

export const sharedIds = (ids: readonly number[]): number[] => ids.filter(isSharedId);
export const isSharedLane = (e: BulkPort, lane: string): boolean => e.queues.sharedLane(lane) !== undefined;

/** Cancels shared jobs by id or by lane; running ones are stopped here or asked to stop where they run. */
export async function cancelShared(e: BulkPort, select: { ids: number[] } | { lane: string }, wants: (s: JobState) => boolean, changed: (jobs: JobSummary[]) => void): Promise<{ cancelled: number; stopping: number }> {
  let cancelled = 0;
  let stopping = 0;
  const one = async (job: JobSummary) => {
    const q = e.queues.forJob(job.id);
    if (job.state === 'running' && wants('running')) {
      if (e.fleet.cancel(job.id, e.cancelGraceMs) || (await q.cancelElsewhere(job.id))) stopping++;
    } else if (job.state === 'queued' && wants('queued')) {
      // In a worker's hand here: the worker drops it and says so.
      if (e.fleet.cancel(job.id, e.cancelGraceMs)) return void stopping++;
      const done = await q.cancelQueued(job.id, Date.now());
      if (done) {
        cancelled++;
        changed([done]);
      }
    }
  };
  await forEachChosen(e, select, (['running', 'queued'] as const).filter(wants), one);
  return { cancelled, stopping };
}

/** Retries shared failed (or cancelled) jobs by id or by lane. */
export async function retryShared(e: BulkPort, select: { ids: number[] } | { lane: string }, states: readonly ('failed' | 'cancelled')[], changed: (jobs: JobSummary[]) => void): Promise<number> {
  let retried = 0;
  const one = async (job: JobSummary) => {
    if (!(states as readonly string[]).includes(job.state)) return;
    const again = await e.queues.forJob(job.id).retry(job.id);
    if (again) {
      retried++;
      changed([again]);
    }
  };
  await forEachChosen(e, select, states, one);
  return retried;
}

/**
 * Each chosen job once: those named by id, or a lane's jobs in each state, newest first a page at
 * a time (the cursor goes on past jobs that stay where they were, such as a running one asked to
 * stop elsewhere).
 */
async function forEachChosen(e: BulkPort, select: { ids: number[] } | { lane: string }, states: readonly JobState[], one: (job: JobSummary) => Promise<void>): Promise<void> {
  if ('ids' in select) {
    for (const id of select.ids) {
      const job = await e.queues.forJob(id).summary(id);
      if (job) await one(job);
    }
    return;
  }
  const q = e.queues.forLane(select.lane);
  for (const state of states) {
    let beforeId: number | undefined;
    for (let i = 0; i < PAGES_MAX; i++) {
      const page = await q.page({ lane: select.lane, state, beforeId, limit: BULK_CHUNK });
      for (const job of page.jobs) await one(job);
      if (page.nextBeforeId === null) break;
      beforeId = page.nextBeforeId;
    }
  }
}
