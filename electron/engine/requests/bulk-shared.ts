// Cancel and retry of many jobs, for the part of a request that falls in shared lanes. Their
// jobs live in a BullMQ queue, so they are changed one by one through the queue interface
// (a mark, a retry: each one BullMQ call), a page at a time; a job running on another engine is
// asked to stop there. The local part of the same request stays with the store's chunks (bulk.ts).
import type { JobState, JobSummary } from '../../../shared/model.js';
import { BULK_CHUNK } from '../store/job-statements.js';
import type { RequestContext } from './context.js';
import { isSharedId } from '../queues/ids.js';

/** Pages of one state read per lane and request: a bound on one request's work, however large the queue. */
const PAGES_MAX = 200;

export const sharedIds = (ids: readonly number[]): number[] => ids.filter(isSharedId);
export const isSharedLane = (e: RequestContext, lane: string): boolean => e.queues.sharedLane(lane) !== undefined;

/** Cancels shared jobs by id or by lane; running ones are stopped here or asked to stop where they run. */
export async function cancelShared(e: RequestContext, select: { ids: number[] } | { lane: string }, wants: (s: JobState) => boolean, changed: (jobs: JobSummary[]) => void): Promise<{ cancelled: number; stopping: number }> {
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
  if ('ids' in select) {
    for (const id of select.ids) {
      const job = await e.queues.forJob(id).summary(id);
      if (job) await one(job);
    }
    return { cancelled, stopping };
  }
  const q = e.queues.forLane(select.lane);
  for (const state of ['running', 'queued'] as const) {
    if (!wants(state)) continue;
    let beforeId: number | undefined;
    for (let i = 0; i < PAGES_MAX; i++) {
      const page = await q.page({ lane: select.lane, state, beforeId, limit: BULK_CHUNK });
      for (const job of page.jobs) await one(job);
      if (page.nextBeforeId === null) break;
      beforeId = page.nextBeforeId;
    }
  }
  return { cancelled, stopping };
}

/** Retries shared failed (or cancelled) jobs by id or by lane. */
export async function retryShared(e: RequestContext, select: { ids: number[] } | { lane: string }, states: readonly ('failed' | 'cancelled')[], changed: (jobs: JobSummary[]) => void): Promise<number> {
  let retried = 0;
  const one = async (job: JobSummary) => {
    if (!(states as readonly string[]).includes(job.state)) return;
    const again = await e.queues.forJob(job.id).retry(job.id);
    if (again) {
      retried++;
      changed([again]);
    }
  };
  if ('ids' in select) {
    for (const id of select.ids) {
      const job = await e.queues.forJob(id).summary(id);
      if (job) await one(job);
    }
    return retried;
  }
  const q = e.queues.forLane(select.lane);
  for (const state of states) {
    // Each retried job leaves the state, so the first page is read again until it comes back empty.
    for (let i = 0; i < PAGES_MAX; i++) {
      const page = await q.page({ lane: select.lane, state, limit: BULK_CHUNK });
      const before = retried;
      for (const job of page.jobs) await one(job);
      if (page.jobs.length === 0 || retried === before) break;
    }
  }
  return retried;
}
