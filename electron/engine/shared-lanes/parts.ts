// The pieces of one shared lane that its files share: BullMQ's queue and worker, the
// connections, the lane, and the jobs this engine holds now.
import type { Job, Queue } from 'bullmq';
import type { ClaimedJob } from '../store/jobs.js';
import type { LaneRow } from '../store/lanes.js';
import type { LaneWorker } from './bull-worker.js';
import type { LaneConnections } from './connections.js';
import type { SharedLaneDeps } from './deps.js';
import { NamedIds } from './named-ids.js';

/** Keys of Lanes' own beside BullMQ's, under `<prefix>:<lane>:lanes:`. */
import { PREFIX } from './job-data.js';

export { PREFIX };

/**
 * A job this engine took from the queue and has not finished: its lock is ours. Taken for a
 * worker's hand, it is ours from then on (no other engine may take it), though the worker has not
 * gone on to it yet.
 */
export interface TakenJob {
  /** Lanes' id of it (what the engine and the worker call it). */
  id: number;
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
  /** Lanes id → the job taken here (every caller knows it by that id; BullMQ's is on the job). */
  taken: Map<number, TakenJob>;
  /** A key of Lanes' own for this lane. */
  key(name: string): string;
  /** Lanes' ids of the jobs a producer named (`jobId`), given and read in Redis (named-ids.ts). */
  names: NamedIds;
  /** Lanes' id of a BullMQ id known here without asking Redis (BullMQ's number, or a name met); null otherwise. */
  idOf(bullId: string | undefined): number | null;
  /** BullMQ's id of a Lanes id known here (a job taken, listed or read here); `names.bullIdFor` asks Redis. */
  bullId(id: number): string;
}

export function laneParts(lane: LaneRow, slot: number, queue: Queue, worker: LaneWorker, conns: LaneConnections, deps: SharedLaneDeps): LaneParts {
  const key = (name: string) => `${PREFIX}:${lane.name}:lanes:${name}`;
  const names = new NamedIds(conns.requests, slot, `${PREFIX}:${lane.name}:`, key);
  return {
    lane,
    slot,
    queue,
    worker,
    conns,
    deps,
    taken: new Map(),
    key,
    names,
    idOf: (bullId) => (bullId === undefined ? null : names.known(bullId)),
    bullId: (id) => names.bullIdOf(id),
  };
}

/** A job no longer taken here: its lock is no longer renewed. */
export function letGo(p: LaneParts, h: TakenJob): void {
  p.taken.delete(h.id);
  p.worker.letGo(h.job.id!);
}
