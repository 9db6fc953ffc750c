// One word for what a lane is doing, derived from the same facts the sizer sees. Pure.
import type { LaneMood } from '../../../shared/model.js';

export interface MoodFacts {
  cap: number;
  ceiling: number;
  waiting: number;
  busy: number;
  /** Workers in service (idle + busy). */
  running: number;
}

export function moodOf(f: MoodFacts): LaneMood {
  if (f.cap === 0 && f.running === 0) return 'off';
  if (f.waiting === 0) return f.busy > 0 ? 'working' : 'idle';
  const allowed = Math.min(f.cap, f.ceiling);
  // Backlog and every allowed worker busy: the cap (or the machine) is the limit.
  if (f.busy >= allowed) return 'saturated';
  // Backlog, room under the cap, yet fewer workers than it could use: other lanes hold the machine.
  if (f.running < Math.min(allowed, f.waiting + f.busy)) return 'sharing';
  return 'working';
}
