// A frame's worth of engine events, folded into what the stores need: the last word per lane,
// in the order the engine said it. Pure, so the ordering rules have a test of their own.
import type { LanesEvent } from '../shared/events.js';
import type { JobSummary, LaneStatus, MachineStatus, Paused, ScaleEvent } from '../shared/model.js';

export interface EventBatch {
  lanes: LaneStatus[];
  removed: Set<string>;
  jobs: JobSummary[];
  /** Jobs announced in bulk (a large batch): whatever shows them must be re-read. */
  bulk: number[];
  scale: ScaleEvent[];
  /** The last pause or resume in the batch, if any. */
  paused?: { paused: Paused | null };
  /** The machine's limits as last said in the batch, if they moved. */
  machine?: MachineStatus;
  /** The newest seq in the batch, or 0 when it is empty. */
  seq: number;
}

/** Folds the events after `after` (the seq the receiving store already reflects). */
export function foldEvents(events: readonly LanesEvent[], after = 0): EventBatch {
  // A removal and a re-adding cancel out in order.
  const lanes = new Map<string, LaneStatus>();
  const removed = new Set<string>();
  const batch: EventBatch = { lanes: [], removed, jobs: [], bulk: [], scale: [], seq: 0 };
  for (const e of events) {
    if (e.seq <= after) continue;
    batch.seq = e.seq;
    if (e.type === 'lane') {
      lanes.set(e.data.name, e.data);
      removed.delete(e.data.name);
    } else if (e.type === 'laneRemoved') {
      lanes.delete(e.data.name);
      removed.add(e.data.name);
    } else if (e.type === 'job' || e.type === 'progress') batch.jobs.push(e.data);
    else if (e.type === 'jobs') batch.bulk.push(...e.data.ids);
    else if (e.type === 'scale') batch.scale.push(e.data);
    else if (e.type === 'paused') batch.paused = e.data;
    else if (e.type === 'machine') batch.machine = e.data;
  }
  batch.lanes = [...lanes.values()];
  return batch;
}
