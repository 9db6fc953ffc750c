// The nudge: a lane telling its person that raising the cap would help right now. Pure.
import type { Nudge } from '../../../shared/model.js';

export interface NudgeFacts {
  cap: number;
  ceiling: number;
  waiting: number;
  /** Workers of this lane running a job. */
  busy: number;
  /** When the lane's oldest waiting job was queued; null when nothing waits. */
  waitingSince: number | null;
  now: number;
  tickMs: number;
  /** Worker processes alive across all lanes. */
  machineInUse: number;
}

const grouped = new Intl.NumberFormat('en-US');
const workers = (n: number) => `${n} worker${n === 1 ? '' : 's'}`;

/**
 * Fires only when a higher cap would run more work now: every worker the cap allows is busy
 * (at cap 0 that is vacuously so), work has waited at least a tick (short jobs don't flicker it),
 * the cap is below the machine ceiling, and the machine has a worker to spare.
 */
export function nudgeFor(f: NudgeFacts): Nudge | null {
  if (f.waiting <= 0 || f.waitingSince === null) return null;
  if (f.cap >= f.ceiling) return null;
  if (f.busy < f.cap) return null;
  if (f.now - f.waitingSince < f.tickMs) return null;
  if (f.machineInUse >= f.ceiling) return null;
  const waiting = grouped.format(f.waiting);
  const text =
    f.cap === 0
      ? `${waiting} waiting and this lane may use no workers (cap 0). Raise the cap to run them — this machine allows up to ${f.ceiling}.`
      : `${waiting} waiting and all ${workers(f.busy)} busy. Raise the cap to run more at once — this machine allows up to ${f.ceiling}.`;
  return { text, waiting: f.waiting, busy: f.busy, ceiling: f.ceiling, suggestedCap: Math.min(f.ceiling, f.busy + f.waiting) };
}
