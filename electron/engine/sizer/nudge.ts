// The nudge: a lane telling its person that raising the cap would help right now. Pure.
import type { Nudge } from '../../../shared/model.js';
import { groupedCount, plural } from '../../../shared/format.js';
import { heldByCap, type LaneDemand } from './wants.js';

export interface NudgeFacts extends LaneDemand {
  /** When the lane's oldest waiting job was queued; null when nothing waits. */
  waitingSince: number | null;
  now: number;
  tickMs: number;
  /** Worker processes alive across all lanes. */
  machineInUse: number;
}


/** Fires only when a higher cap would run more work now, and work has waited at least a tick
 * (short jobs don't make it flicker). */
export function nudgeFor(f: NudgeFacts): Nudge | null {
  if (!heldByCap(f) || f.waitingSince === null || f.now - f.waitingSince < f.tickMs) return null;
  const waiting = groupedCount(f.waiting);
  const text =
    f.cap === 0
      ? `${waiting} waiting and this lane may use no workers (cap 0). Raise the cap to run them — this machine allows up to ${f.ceiling}.`
      : `${waiting} waiting and all ${plural(f.busy, 'worker')} busy. Raise the cap to run more at once — this machine allows up to ${f.ceiling}.`;
  return { text, waiting: f.waiting, busy: f.busy, ceiling: f.ceiling, suggestedCap: Math.min(f.ceiling, f.busy + f.waiting) };
}

/** When a lane held by its cap will have waited long enough to nudge; null if nothing is pending. */
export function nudgeDueAt(f: NudgeFacts): number | null {
  if (!heldByCap(f) || f.waitingSince === null) return null;
  const due = f.waitingSince + f.tickMs;
  return due > f.now ? due : null;
}
