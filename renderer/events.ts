// A frame's worth of engine events, folded into what the stores need: the last word per lane,
// in the order the engine said it. Pure, so the ordering rules have a test of their own.
import type { LanesEvent } from '../shared/events.js';
import type { Job, LaneStatus, Nudge, ScaleEvent } from '../shared/model.js';

export interface EventBatch {
  lanes: LaneStatus[];
  removed: Set<string>;
  /** Nudges for lanes with no lane event in this batch. */
  nudges: Map<string, Nudge | null>;
  jobs: Job[];
  scale: ScaleEvent[];
}

export function foldEvents(events: LanesEvent[]): EventBatch {
  // A nudge after a lane event amends that lane; a lane event after a nudge already carries the
  // newer nudge; a removal and a re-adding cancel out in order.
  const lanes = new Map<string, LaneStatus>();
  const removed = new Set<string>();
  const nudges = new Map<string, Nudge | null>();
  const jobs: Job[] = [];
  const scale: ScaleEvent[] = [];
  for (const e of events) {
    if (e.type === 'lane') {
      lanes.set(e.data.name, e.data);
      nudges.delete(e.data.name);
      removed.delete(e.data.name);
    } else if (e.type === 'laneRemoved') {
      lanes.delete(e.data.name);
      nudges.delete(e.data.name);
      removed.add(e.data.name);
    } else if (e.type === 'nudge') {
      const lane = lanes.get(e.data.lane);
      if (lane) lanes.set(lane.name, { ...lane, nudge: e.data.nudge });
      else nudges.set(e.data.lane, e.data.nudge);
    } else if (e.type === 'job') {
      jobs.push(e.data);
    } else if (e.type === 'scale') {
      scale.push(e.data);
    }
  }
  return { lanes: [...lanes.values()], removed, nudges, jobs, scale };
}
