// Control over many jobs at once: cancel or retry by a list of ids, or every job of a lane
// and/or state ("retry all failed"). The store changes them a chunk per transaction, so a request
// over a million jobs takes a while but never holds the engine for more than a few milliseconds;
// jobs that workers run or hold in hand are theirs to stop or drop, and say so as job events.
import type { JobState, JobSummary } from '../../../shared/model.js';
import type { LanesHandlers } from '../../../shared/requests.js';
import { JOB_EVENTS_PER_REQUEST } from '../../../shared/limits.js';
import { BULK_CHUNK } from '../store/job-statements.js';
import type { ChunkSelect } from '../store/job-types.js';
import { existingLane, type BulkPort } from './context.js';
import { cancelShared, isSharedLane, retryShared, sharedIds } from './bulk-shared.js';
import { isSharedId } from '../store/job-ids.js';

type BulkHandlers = Pick<LanesHandlers, 'cancelJobs' | 'retryJobs'>;

/** Each chunk in turn: ids a chunk at a time, or one lane's until a chunk comes back empty. */
async function inChunks(select: { ids: number[] } | { lanes: string[] }, step: (s: { ids: number[] } | { lane: string }) => Promise<JobSummary[]>, changed: (jobs: JobSummary[]) => void): Promise<number> {
  let n = 0;
  if ('ids' in select) {
    for (let i = 0; i < select.ids.length; i += BULK_CHUNK) {
      const jobs = await step({ ids: select.ids.slice(i, i + BULK_CHUNK) });
      n += jobs.length;
      changed(jobs);
    }
    return n;
  }
  for (const lane of select.lanes) {
    for (let jobs = await step({ lane }); jobs.length > 0; jobs = await step({ lane })) {
      n += jobs.length;
      changed(jobs);
    }
  }
  return n;
}

/**
 * A choice by label is the ids of the jobs that carry it (in the lane and state asked for):
 * labels live in this engine's store, so a shared lane's jobs carry none.
 */
function byLabel<T extends { ids?: number[] | undefined; lane?: string | undefined; state?: string | undefined; label?: string | undefined }>(e: BulkPort, input: T, states: JobState[]): T {
  if (input.label === undefined) return input;
  if (input.lane !== undefined) existingLane(e, input.lane);
  return { ids: e.jobs.waits.labelled(input.label, input.lane, input.state ? [input.state as JobState] : states) } as T;
}

/**
 * The local part of a retry, a chunk at a time: ids in slices, a lane by a cursor (jobs refused
 * stay failed, and are not read again).
 */
async function retryLocal(e: BulkPort, select: { ids: number[] } | { lanes: string[] }, states: ('failed' | 'cancelled')[], changed: (jobs: JobSummary[]) => void) {
  const done = { retried: 0, refused: 0 };
  const step = async (s: ChunkSelect, chosen: ('failed' | 'cancelled')[], after?: number) => {
    const chunk = await e.jobs.retryChunk(s, chosen, after);
    done.retried += chunk.jobs.length;
    done.refused += chunk.refused;
    changed(chunk.jobs);
    return chunk.next;
  };
  // By ids, every state at once: a chain retried together may have ended each way (a cancelled job, its dependents failed).
  if ('ids' in select) for (let i = 0; i < select.ids.length; i += BULK_CHUNK) await step({ ids: select.ids.slice(i, i + BULK_CHUNK) }, states);
  else for (const state of states) for (const lane of select.lanes) for (let after = await step({ lane }, [state], 0); after !== null; after = await step({ lane }, [state], after));
  return done;
}

export function bulkHandlers(e: BulkPort): BulkHandlers {
  /** Job events for a few, one `jobs` event per chunk for many: a million events would flood every window. */
  const announcer = (expected: number) => (jobs: JobSummary[]) => {
    if (jobs.length === 0) return;
    if (expected <= JOB_EVENTS_PER_REQUEST) for (const j of jobs) e.events.emit('job', j);
    else e.events.emit('jobs', { ids: jobs.map((j) => j.id), change: 'changed' });
  };
  const lanesOf = (lane: string | undefined) => (lane === undefined ? e.lanes.list().map((l) => l.name) : [existingLane(e, lane).name]);
  // A request's shared part goes through the lanes' queues (bulk-shared.ts); the rest through the store.
  const localIds = (ids: number[]) => ids.filter((id) => !isSharedId(id));
  const split = (lanes: string[]) => ({ local: lanes.filter((l) => !isSharedLane(e, l)), shared: lanes.filter((l) => isSharedLane(e, l)) });
  const queuedIn = (lanes: string[]) => lanes.reduce((n, l) => n + (e.lanes.allCounts().get(l)?.queued ?? 0), 0);

  return {
    cancelJobs: async (asked) => {
      const input = byLabel(e, asked, ['queued', 'running']);
      if (input.ids?.length === 0) return { cancelled: 0, stopping: 0 };
      const lanes = input.ids ? [] : lanesOf(input.lane);
      const wants = (state: JobState) => input.ids !== undefined || input.state === undefined || input.state === state;
      const shared = input.ids ? sharedIds(input.ids) : [];
      const { local: localLanes, shared: sharedLanes } = split(lanes);
      const announce = announcer(input.ids?.length ?? queuedIn(lanes));
      let sharedDone = { cancelled: 0, stopping: 0 };
      for (const select of [...(shared.length > 0 ? [{ ids: shared }] : []), ...sharedLanes.map((lane) => ({ lane }))]) {
        const r = await cancelShared(e, select, wants, announce);
        sharedDone = { cancelled: sharedDone.cancelled + r.cancelled, stopping: sharedDone.stopping + r.stopping };
      }
      if (input.lane !== undefined && sharedLanes.length > 0) return sharedDone;
      const inWorkers = e.fleet.jobsInWorkers(input.lane);
      // Running, or in a worker's hand: the worker stops it or drops it, and says so.
      const theirs = [...(wants('running') ? inWorkers.running : []), ...(wants('queued') ? inWorkers.inHand : [])].filter((id) => !isSharedId(id) && (!input.ids || input.ids.includes(id)));
      let stopping = sharedDone.stopping;
      for (const id of theirs) if (e.fleet.cancel(id, e.cancelGraceMs)) stopping++;
      if (!wants('queued')) return { cancelled: sharedDone.cancelled, stopping };
      const skip = [...inWorkers.inHand, ...(input.ids ? e.fleet.jobsInWorkers().inHand : [])];
      const select = input.ids ? { ids: localIds(input.ids) } : { lanes: localLanes };
      const now = Date.now();
      const cancelled = await inChunks(select, (s) => e.jobs.cancelQueuedChunk(s, skip, now), announce);
      e.fleet.jobsLeft();
      return { cancelled: cancelled + sharedDone.cancelled, stopping };
    },
    retryJobs: async (asked) => {
      const input = byLabel(e, asked, ['failed']);
      if (input.ids?.length === 0) return { retried: 0 };
      const states: ('failed' | 'cancelled')[] = input.state ? [input.state as 'failed' | 'cancelled'] : input.ids ? ['failed', 'cancelled'] : ['failed'];
      const lanes = input.ids ? [] : lanesOf(input.lane);
      const expected = input.ids?.length ?? lanes.reduce((n, l) => n + states.reduce((m, st) => m + (e.lanes.allCounts().get(l)?.[st] ?? 0), 0), 0);
      const { local: localLanes, shared: sharedLanes } = split(lanes);
      const shared = input.ids ? sharedIds(input.ids) : [];
      let retried = 0;
      for (const select of [...(shared.length > 0 ? [{ ids: shared }] : []), ...sharedLanes.map((lane) => ({ lane }))]) retried += await retryShared(e, select, states, announcer(expected));
      const local = await retryLocal(e, input.ids ? { ids: localIds(input.ids) } : { lanes: localLanes }, states, announcer(expected));
      retried += local.retried;
      if (retried > 0) e.fleet.jobsArrived(input.ids ? e.lanes.list().map((l) => l.name) : lanes);
      return local.refused > 0 ? { retried, refused: local.refused } : { retried };
    },
  };
}
