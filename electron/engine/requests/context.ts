// What request handlers work with: the stores, the event hub, the fleet through its narrow port,
// and the status board. Handlers check what only the engine knows (which lanes
// exist, a job's state); the input itself was validated before they are called.
import type { LaneStatus, LaneTimeline, Status } from '../../../shared/model.js';
import type { EventHub } from '../event-hub.js';
import type { FleetPort } from '../fleet/fleet.js';
import type { JobQueries } from '../store/job-queries.js';
import type { JobStore } from '../store/jobs.js';
import type { LaneRow, LaneStore } from '../store/lanes.js';
import { notFound } from '../../../shared/errors.js';
import type { Ledger } from '../store/ledger.js';
import type { Queues } from '../queues/queues.js';
import type { SharedLanes } from '../queues/shared-host.js';
import type { Hold } from '../hold.js';

import type { LogPaths } from '../queues/queue.js';

export type { LogPaths };

export interface StatusBoard {
  status(): Status;
  /** Announces every lane whose status changed, now rather than at the next publishing moment. */
  announce(): void;
  lane(name: string): LaneStatus | undefined;
  timeline(lanes: readonly string[], since: number): LaneTimeline[];
  /** A lane is gone: forget what was announced and sampled of it. */
  forget(lane: string): void;
}

export interface RequestContext {
  readonly cancelGraceMs: number;
  readonly jobs: JobStore;
  readonly queries: JobQueries;
  /** Where each lane's and each job's store is: requests about jobs go through it. */
  readonly queues: Queues;
  readonly shared: SharedLanes;
  readonly lanes: LaneStore;
  readonly ledger: Ledger;
  readonly events: EventHub;
  readonly fleet: FleetPort;
  readonly board: StatusBoard;
  readonly hold: Hold;
  logPaths(jobId: number): LogPaths;
}

/** The lane a request names, or a not_found error naming the field that named it. */
export function existingLane(e: Pick<RequestContext, 'lanes'>, name: string, field = 'lane'): LaneRow {
  const row = e.lanes.find(name);
  if (!row) throw notFound(`there is no lane named "${name}"`, field);
  return row;
}
