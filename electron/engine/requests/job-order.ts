// What an add or an edit asks about order and time, checked against what only the engine knows:
// that the jobs it runs after exist and have not already failed, that they are this engine's own,
// and that a shared lane is asked only for what its queue keeps. The shapes were checked before.
import type { JobState } from '../../../shared/model.js';
import { badRequest, conflict } from '../../../shared/errors.js';
import { isSharedId } from '../store/job-ids.js';
import type { LaneRow } from '../store/lanes.js';
import type { JobsPort } from './context.js';

/**
 * On a shared lane, delay and priority go through BullMQ's own; running after other jobs and
 * labels are kept by one engine's store, which the other engines of the lane cannot see, so they
 * are refused there rather than half kept.
 */
export function checkOrderingOnLane(_e: JobsPort, lane: LaneRow, input: { after?: number[] | undefined; labels?: string[] | undefined }, field = ''): void {
  if (lane.queue === null) return;
  if (input.after !== undefined && input.after.length > 0) {
    throw badRequest(`lane "${lane.name}" is shared with other engines, and a job there cannot run after other jobs (they are kept by one engine's store); delay, time and priority work on a shared lane`, `${field}after`);
  }
  if (input.labels !== undefined && input.labels.length > 0) {
    throw badRequest(`lane "${lane.name}" is shared with other engines, and its jobs cannot carry labels (they are kept by one engine's store); delay, time and priority work on a shared lane`, `${field}labels`);
  }
}

/** Every job named exists in this engine's own store and has not failed or been cancelled. */
export function checkAfter(e: JobsPort, after: readonly number[], field: string): Map<number, JobState> {
  const shared = after.find(isSharedId);
  if (shared !== undefined) throw badRequest(`job ${shared} is in a shared lane; a job can run after jobs of this engine's own lanes only`, field);
  const states = e.jobs.waits.statesOf(after);
  const missing = after.find((id) => !states.has(id));
  if (missing !== undefined) throw badRequest(`there is no job ${missing} to run after`, field);
  const ended = after.find((id) => states.get(id) === 'failed' || states.get(id) === 'cancelled');
  if (ended !== undefined) {
    const was = states.get(ended) === 'cancelled' ? 'was cancelled' : 'failed';
    throw conflict(`job ${ended} ${was}, so a job after it would never run; retry it first (lanes retry ${ended})`, field);
  }
  return states;
}

/** When a job asked to wait for its time may run: `delaySeconds` from now, or `notBefore`; null: at once. */
export function notBeforeOf(input: { delaySeconds?: number | undefined; notBefore?: number | null | undefined }, now: number): number | null {
  if (input.delaySeconds !== undefined) return now + Math.round(input.delaySeconds * 1000);
  if (input.notBefore !== undefined && input.notBefore !== null && input.notBefore > now) return input.notBefore;
  return null;
}
