// How many workers a lane may have and wants, defined once: the policy sizes by it, the mood
// describes it and the nudge speaks of it, so the three can never disagree. Pure.

export interface LaneDemand {
  cap: number;
  /** The machine ceiling: the most workers all lanes together may run. */
  ceiling: number;
  waiting: number;
  /** Workers of this lane running a job. */
  busy: number;
}

/** The most workers a lane may run: its cap, within the machine ceiling. */
export const allowed = (d: Pick<LaneDemand, 'cap' | 'ceiling'>): number => Math.max(0, Math.min(d.cap, d.ceiling));

/** The workers a lane could use right now if it had the machine to itself. */
export const wanted = (d: LaneDemand): number => Math.min(allowed(d), d.waiting + d.busy);

/** Work waits and every worker the lane is allowed is busy: only a higher limit would run more. */
export const atLimit = (d: LaneDemand): boolean => d.waiting > 0 && d.busy >= allowed(d);

/**
 * Held back by its cap and nothing else: at its limit, the cap is below the ceiling (so raising it
 * is possible), and the machine has a worker to spare. At cap 0 "every worker busy" holds vacuously.
 */
export const heldByCap = (d: LaneDemand & { machineInUse: number }): boolean =>
  atLimit(d) && d.cap < d.ceiling && d.machineInUse < d.ceiling;
