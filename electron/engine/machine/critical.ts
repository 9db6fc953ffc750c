// The one time Lanes stops a busy worker for the machine's sake: available memory has fallen
// below the critical floor, where the OS is about to swap hard or kill something at random. It
// names one worker to stop, the newest busy one of the lane whose workers cost most: stopping it
// frees the most memory and loses the least work, and the engine queues its job again without
// counting an attempt. One per fresh reading, since memory takes a moment to come back. Pure.
import type { MachineFacts } from './facts.js';
import { aboutBytes } from '../../../shared/format.js';
import { criticalFloor } from './memory-budget.js';

export interface BusyLane {
  name: string;
  /** Typical bytes per worker (measured, or presumed). */
  costBytes: number;
  /** Its busy workers and since when each runs its current job. */
  busy: readonly { id: string; since: number }[];
}

export interface CriticalStop {
  worker: string;
  lane: string;
  text: string;
}

/** `lastAt`: the facts' `at` when the previous worker was named; null if none was. */
export function criticalStop(facts: MachineFacts, lanes: readonly BusyLane[], lastAt: number | null): { stop: CriticalStop | null; lastAt: number | null } {
  const floor = criticalFloor(facts.memory.total);
  if (facts.memory.available >= floor || (lastAt !== null && facts.at <= lastAt)) return { stop: null, lastAt };
  const lane = lanes
    .filter((l) => l.busy.length > 0)
    .sort((a, b) => b.costBytes - a.costBytes || (a.name < b.name ? -1 : 1))[0];
  if (!lane) return { stop: null, lastAt };
  const newest = [...lane.busy].sort((a, b) => b.since - a.since || (a.id < b.id ? 1 : -1))[0]!;
  const text = `memory critically low (${aboutBytes(facts.memory.available)} free): stopped a ${lane.name} worker, its job runs again`;
  return { stop: { worker: newest.id, lane: lane.name, text }, lastAt: facts.at };
}
