// The pieces of one shared lane that its files share: BullMQ's queue and worker, the
// connections, the lane, and the jobs this engine holds now.
import type { Job, Queue } from 'bullmq';
import type { LaneRow } from '../store/lanes.js';
import { bullIdOf, sharedId } from '../queues/ids.js';
import type { LaneWorker } from './bull-worker.js';
import type { LaneConnections } from './connections.js';
import type { SharedLaneDeps } from './deps.js';

/** Keys of Lanes' own beside BullMQ's, under `<prefix>:<lane>:lanes:`. */
export const PREFIX = 'lanes';

/** A job this engine took from the queue and has not finished: its lock is ours. */
export interface Held {
  job: Job;
  token: string;
  /** The pool's worker that runs it. */
  worker: string;
  attempt: number;
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
  /** BullMQ id → the job held here. */
  held: Map<string, Held>;
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
    held: new Map(),
    key: (name) => `${PREFIX}:${lane.name}:lanes:${name}`,
    idOf: (bullId) => (bullId === undefined ? null : sharedId(slot, bullId)),
    bullId: bullIdOf,
  };
}
