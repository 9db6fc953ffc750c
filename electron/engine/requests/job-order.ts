// What an add or an edit asks about order and time, checked against what only the engine knows:
// that the jobs it runs after exist (or were cleaned after succeeding: that counts as succeeded)
// and can still succeed, that they are this engine's own, and that a shared lane is asked only for
// what its queue keeps. The shapes were checked before.
import { badRequest, conflict } from '../../../shared/errors.js';
import { isSharedId } from '../store/job-ids.js';
import { cannotRunAfter } from '../store/job-waits.js';
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

/**
 * Every job named is this engine's own and can still succeed, or has: kept and not failed or
 * cancelled, or cleaned after it succeeded. The same words refuse a retry (store/job-waits.ts).
 */
export function checkAfter(e: JobsPort, after: readonly number[], field: string): void {
  const shared = after.find(isSharedId);
  if (shared !== undefined) throw badRequest(`job ${shared} is in a shared lane; a job can run after jobs of this engine's own lanes only`, field);
  const lost = e.jobs.waits.lostAmong(after);
  if (!lost) return;
  if (lost.state === null) throw badRequest(cannotRunAfter(lost), field);
  throw conflict(cannotRunAfter(lost), field);
}

/** When a job asked to wait for its time may run: `delaySeconds` from now, or `notBefore`; null: at once. */
export function notBeforeOf(input: { delaySeconds?: number | undefined; notBefore?: number | null | undefined }, now: number): number | null {
  if (input.delaySeconds !== undefined) return now + Math.round(input.delaySeconds * 1000);
  if (input.notBefore !== undefined && input.notBefore !== null && input.notBefore > now) return input.notBefore;
  return null;
}
