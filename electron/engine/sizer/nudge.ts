// The nudge: a lane telling its person that raising the cap would help right now. Pure.
import type { Nudge } from '../../../shared/model.js';
import { groupedCount } from '../../../shared/format.js';

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

const workers = (n: number) => `${n} worker${n === 1 ? '' : 's'}`;

/**
 * The lane is held back by its cap and nothing else: work waits, every worker the cap allows is
 * busy (at cap 0 that is vacuously so), the cap is below the machine ceiling, and the machine has
 * a worker to spare. Needs no `waitingSince`, so a caller can skip looking that up otherwise.
 */
export function heldByCap(f: Pick<NudgeFacts, 'cap' | 'ceiling' | 'waiting' | 'busy' | 'machineInUse'>): boolean {
  return f.waiting > 0 && f.cap < f.ceiling && f.busy >= f.cap && f.machineInUse < f.ceiling;
}

/** Fires only when a higher cap would run more work now, and work has waited at least a tick
 * (short jobs don't make it flicker). */
export function nudgeFor(f: NudgeFacts): Nudge | null {
  if (!heldByCap(f) || f.waitingSince === null || f.now - f.waitingSince < f.tickMs) return null;
  const waiting = groupedCount(f.waiting);
  const text =
    f.cap === 0
      ? `${waiting} waiting and this lane may use no workers (cap 0). Raise the cap to run them — this machine allows up to ${f.ceiling}.`
      : `${waiting} waiting and all ${workers(f.busy)} busy. Raise the cap to run more at once — this machine allows up to ${f.ceiling}.`;
  return { text, waiting: f.waiting, busy: f.busy, ceiling: f.ceiling, suggestedCap: Math.min(f.ceiling, f.busy + f.waiting) };
}

/** When a lane held by its cap will have waited long enough to nudge; null if nothing is pending. */
export function nudgeDueAt(f: NudgeFacts): number | null {
  if (!heldByCap(f) || f.waitingSince === null) return null;
  const due = f.waitingSince + f.tickMs;
  return due > f.now ? due : null;
}
