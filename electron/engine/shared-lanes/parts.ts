// The pieces of one shared lane that its files share: BullMQ's queue and worker, the
// connections, the lane, and Lanes' ids of its jobs.
import type { Queue } from 'bullmq';
import type { LaneRow } from '../store/lanes.js';
import type { LaneWorker } from './bull-worker.js';
import type { LaneConnections } from './connections.js';
import type { SharedLaneDeps } from './deps.js';
import { NamedIds } from './named-ids.js';

/** Keys of Lanes' own beside BullMQ's, under `<prefix>:<lane>:lanes:`. */
import { PREFIX } from './job-data.js';

export { PREFIX };

export interface LaneParts {
  lane: LaneRow;
  slot: number;
  queue: Queue;
  worker: LaneWorker;
  conns: LaneConnections;
  deps: SharedLaneDeps;
  /** A key of Lanes' own for this lane. */
  key(name: string): string;
  /** Lanes' ids of the jobs a producer named (`jobId`), given and read in Redis (named-ids.ts). */
  names: NamedIds;
  /** Lanes' id of a BullMQ id known here without asking Redis (BullMQ's number, or a name met); null otherwise. */
  idOf(bullId: string | undefined): number | null;
  /** BullMQ's id of a Lanes id known here (a job listed or read here); `names.bullIdFor` asks Redis. */
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
    key,
    names,
    idOf: (bullId) => (bullId === undefined ? null : names.known(bullId)),
    bullId: (id) => names.bullIdOf(id),
  };
}
