// What request handlers work with, as one narrow port per handler group: each names only the
// members, and of each member only the methods, that its handlers use (as BullMQ hands its lock
// manager a few methods rather than the worker). The engine builds one object that satisfies
// them all. Handlers check what only the engine knows (which lanes exist, a job's state); the
// input itself was validated before they are called.
import type { StatusBoard } from '../status/board.js';
import type { EventHub } from '../event-hub.js';
import type { JobStore } from '../store/jobs.js';
import type { LaneRow, LaneStore } from '../store/lanes.js';
import { notFound } from '../../../shared/errors.js';
import { closestName } from '../../../shared/format.js';
import type { Ledger } from '../store/ledger.js';
import type { Queues } from '../queues/queues.js';
import type { SharedLanes } from '../shared-lanes/shared-lanes.js';
import type { Pause } from '../pause.js';
import type { LogPaths } from '../queues/queue.js';
import type { JobCleaner } from '../store/cleaning.js';

export type { LogPaths };

export type { StatusBoard };

/** What request handlers may ask of the workers and of the sizer, and nothing more. */
export interface FleetPort {
  /** New work in these lanes: idle workers pull, and the sizer looks. */
  jobsArrived(lanes: Iterable<string>): void;
  /** Work left a lane without a worker (a queued job cancelled): the sizer looks. */
  jobsLeft(): void;
  /** A lane was added or its cap changed. The sizer acts before this returns. */
  lanesChanged(): void;
  /** Tells the worker that runs the job, or has it in hand, to stop or drop it; false if none does. */
  cancel(jobId: number, graceMs: number): boolean;
  /** A lane is gone: its workers stop, and what was remembered of it is forgotten. */
  laneRemoved(name: string): void;
  /** Jobs workers run now, and jobs in their hands (still queued), of a lane or of all. */
  jobsInWorkers(lane?: string): { running: number[]; inHand: number[] };
}

type Events<K extends keyof EventHub> = Pick<EventHub, K>;

/** Adding, reading, waiting for, cancelling, retrying, editing and restarting one job (jobs.ts, edit.ts). */
export interface JobsPort {
  readonly cancelGraceMs: number;
  readonly queues: Pick<Queues, 'forJob' | 'forLane' | 'page'>;
  /** What jobs wait for (job-waits.ts), and the local store's own edits. */
  readonly jobs: Pick<JobStore, 'waits' | 'edit' | 'requeueFinishedAll' | 'restartAsNew' | 'statesOf'>;
  readonly events: Events<'emit' | 'lastSeq' | 'subscribe'>;
  readonly fleet: Pick<FleetPort, 'jobsArrived' | 'jobsLeft' | 'cancel' | 'jobsInWorkers'>;
  /** Existence checks name the lane a request names. */
  readonly lanes: Pick<LaneStore, 'find' | 'list'>;
  /** What is kept of cleaned jobs: a request about one answers with it. */
  readonly cleaner: Pick<JobCleaner, 'find'>;
}

/** Cancelling and retrying many jobs at once, local and shared (bulk.ts, bulk-shared.ts). */
export interface BulkPort {
  readonly cancelGraceMs: number;
  readonly queues: Pick<Queues, 'forJob' | 'forLane' | 'sharedLane'>;
  readonly jobs: Pick<JobStore, 'retryChunk' | 'cancelQueuedChunk' | 'waits'>;
  readonly lanes: Pick<LaneStore, 'find' | 'list' | 'allCounts'>;
  readonly events: Events<'emit'>;
  readonly fleet: Pick<FleetPort, 'jobsArrived' | 'jobsLeft' | 'cancel' | 'jobsInWorkers'>;
}

/** Pausing all work and quieting a lane's nudge (pause.ts). */
export interface PausePort {
  readonly pause: Pick<Pause, 'pause' | 'resume'>;
  readonly lanes: Pick<LaneStore, 'find' | 'list' | 'setQuiet' | 'setPause'>;
  readonly board: Pick<StatusBoard, 'lane' | 'announce'>;
  readonly fleet: Pick<FleetPort, 'lanesChanged'>;
  readonly events: Events<'lastSeq'>;
}

/** Lanes: adding, removing, caps, status, the ledger and the timeline (lanes.ts). */
export interface LanesPort {
  readonly cancelGraceMs: number;
  readonly lanes: Pick<LaneStore, 'find' | 'list' | 'allCounts' | 'add' | 'remove' | 'setCap' | 'setQuiet'>;
  readonly board: StatusBoard;
  readonly events: Events<'emit' | 'lastSeq' | 'subscribe'>;
  readonly ledger: Pick<Ledger, 'list'>;
  readonly shared: Pick<SharedLanes, 'join' | 'leave'>;
  readonly fleet: Pick<FleetPort, 'lanesChanged' | 'laneRemoved' | 'cancel' | 'jobsInWorkers'>;
  logPaths(jobId: number): LogPaths;
}

/** Everything the engine hands its handlers: one object, each group seeing only its port. */
export type RequestContext = JobsPort & BulkPort & PausePort & LanesPort;

/** The lane a request names, or a not_found error naming the field that named it. */
export function existingLane(e: { readonly lanes: Pick<LaneStore, 'find' | 'list'> }, name: string, field = 'lane'): LaneRow {
  const row = e.lanes.find(name);
  if (row) return row;
  // A typo gets the lane it most likely meant, as a mistyped command does.
  const meant = closestName(name, e.lanes.list().map((l) => l.name));
  throw notFound(`there is no lane named "${name}"${meant === null ? '' : ` — did you mean "${meant}"?`}`, field);
}
