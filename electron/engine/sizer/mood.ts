// One word for what a lane is doing, from the same definitions the sizer sizes by. Pure.
import type { LaneMood } from '../../../shared/model.js';
import { atLimit, machineAllows, wanted, type WorkerRoom } from './wants.js';

export interface MoodFacts extends WorkerRoom {
  /** Workers in service (idle + busy). */
  running: number;
  /** A person paused all work. */
  paused: boolean;
}

export function moodOf(f: MoodFacts): LaneMood {
  if (f.cap === 0 && f.running === 0) return 'off';
  if (f.paused) return 'paused';
  if (f.waiting === 0) return f.busy > 0 ? 'working' : 'idle';
  // Backlog and every allowed worker busy: the cap is the limit, or the machine when it allows this lane fewer.
  if (atLimit(f)) return machineAllows(f) < f.cap ? 'held' : 'saturated';
  // Backlog, room under the cap, yet fewer workers than it could use: other lanes hold the machine.
  if (f.running < wanted(f)) return 'sharing';
  return 'working';
}
