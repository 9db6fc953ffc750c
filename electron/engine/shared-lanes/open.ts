// The door the engine loads on demand (shared-lanes/shared-lanes.ts): BullMQ and ioredis are imported
// from here down, so an engine without shared lanes never loads them.
import { conflict, LanesError } from '../../../shared/errors.js';
import type { RedisAddress } from '../../../shared/redis-url.js';
import { slotOf } from '../store/job-ids.js';
import type { SharedQueue } from '../queues/queues.js';
import type { LaneRow } from '../store/lanes.js';
import { describe } from './connections.js';
import type { SharedLaneDeps } from './deps.js';
import { BullLane } from './shared-queue.js';

/** How long joining a lane waits for Redis to answer before saying it cannot. */
const JOIN_WAIT_MS = 8_000;

export function openSharedQueue(row: LaneRow, address: RedisAddress, deps: SharedLaneDeps): SharedQueue {
  return new BullLane(row, address, slotOf(row.name), deps);
}

/**
 * Redis answers, and agrees about the lane: every engine of a lane runs the same kind of job
 * (commands, or payloads for a worker command), so the first engine to join says which, and a
 * later one that disagrees is refused before it takes a job it could not run.
 */
export async function ready(q: SharedQueue): Promise<void> {
  const lane = q as BullLane;
  const conns = lane.p.conns;
  let timer: NodeJS.Timeout | undefined;
  const refusal = conns.whenRefused();
  const reached = await Promise.race([
    conns.whenReachable().then(() => true as const),
    refusal.refused,
    new Promise<false>((done) => (timer = setTimeout(() => done(false), JOIN_WAIT_MS))),
  ]);
  clearTimeout(timer);
  refusal.off();
  if (typeof reached === 'string') throw new LanesError('queue_unreachable', `Redis at ${conns.redacted} refused Lanes (${reached}); check the user and password; the lane was not added`);
  if (!reached) throw new LanesError('queue_unreachable', `cannot reach Redis at ${conns.redacted}${conns.error ? `: ${conns.error}` : ''}; the lane was not added`);
  const kind = lane.p.lane.workerCommand ? 'worker-command' : 'commands';
  const key = lane.p.key('meta');
  let agreed: string | null;
  try {
    await conns.requests.hsetnx(key, 'kind', kind);
    agreed = await conns.requests.hget(key, 'kind');
  } catch (error) {
    throw new LanesError('queue_unreachable', `Redis at ${conns.redacted} refused Lanes' first request (${describe(error)}); the lane was not added`);
  }
  if (agreed !== kind) {
    throw conflict(
      agreed === 'worker-command'
        ? `lane "${q.lane}" on that Redis runs payloads for a worker command; add it here with a worker command too (-- COMMAND)`
        : `lane "${q.lane}" on that Redis runs commands; add it here without a worker command`,
      'workerCommand',
    );
  }
  await lane.started;
  await lane.poll();
}
