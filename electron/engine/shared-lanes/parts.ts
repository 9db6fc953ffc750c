// The pieces of one shared lane that its files share: BullMQ's queue and worker, the
// connections, the lane, and the jobs this engine holds now.
import type { Job, Queue } from 'bullmq';
import type { ClaimedJob } from '../store/jobs.js';
import type { LaneRow } from '../store/lanes.js';
import { bullIdOf, sharedId } from '../store/job-ids.js';
import type { LaneWorker } from './bull-worker.js';
import type { LaneConnections } from './connections.js';
import type { SharedLaneDeps } from './deps.js';

/** Keys of Lanes' own beside BullMQ's, under `<prefix>:<lane>:lanes:`. */
import { PREFIX } from './job-data.js';

export { PREFIX };

/**
 * A job this engine took from the queue and has not finished: its lock is ours. Taken for a
 * worker's hand, it is ours from then on (no other engine may take it), though the worker has not
 * gone on to it yet.
 */
export interface TakenJob {
  job: Job;
  token: string;
  /** The pool's worker that runs it, or holds it in hand. */
  worker: string;
  attempt: number;
  /** What the worker was sent. */
  claimed: ClaimedJob;
  /** When the worker went on to it; null while it is in the worker's hand. */
  startedAt: number | null;
  /** Its log files' size when their tail was last sent. */
  sentSize: number;
}

export interface LaneParts {
  lane: LaneRow;
  slot: number;
  queue: Queue;
  worker: LaneWorker;
  conns: LaneConnections;
  deps: SharedLaneDeps;
  /** BullMQ id → the job taken here. */
  taken: Map<string, TakenJob>;
  /** A key of Lanes' own for this lane. */
  key(name: string): string;
  /** Lanes' id of a BullMQ id; null when it is not a Lanes id (something else wrote to the queue). */
  idOf(bullId: string | undefined): number | null;
  bullId(id: number): string;
}

export function laneParts(lane: LaneRow, slot: number, queue: Queue, worker: LaneWorker, conns: LaneConnections, deps: SharedLaneDeps): LaneParts {
  return {
    lane,
    slot,
    queue,
    worker,
    conns,
    deps,
    taken: new Map(),
    key: (name) => `${PREFIX}:${lane.name}:lanes:${name}`,
    idOf: (bullId) => (bullId === undefined ? null : sharedId(slot, bullId)),
    bullId: bullIdOf,
  };
}

/** A job no longer taken here: its lock is no longer renewed. */
export function letGo(p: LaneParts, bullId: string): void {
  p.taken.delete(bullId);
  p.worker.letGo(bullId);
}
