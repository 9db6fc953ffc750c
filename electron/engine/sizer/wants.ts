// How many workers a lane may have and wants, defined once: the policy sizes by it, the mood
// describes it and the nudge speaks of it, so the three can never disagree. Pure.

/** What bounds a lane's workers (its cap, the ceiling, its limit) against what it has for them; its queued work split into parts is `LaneDemand` (demand.ts). */
export interface WorkerRoom {
  cap: number;
  /** The machine ceiling: the most workers all lanes together may run. */
  ceiling: number;
  waiting: number;
  /** Workers of this lane running a job. */
  busy: number;
  /** What the machine allows this lane alone (its memory); absent: only the ceiling. */
  limit?: number;
}

/** The most the machine lets this lane run: the ceiling, or less where its memory says so. */
export const machineAllows = (d: Pick<WorkerRoom, 'ceiling' | 'limit'>): number => Math.min(d.ceiling, d.limit ?? Infinity);

/** The most workers a lane may run: its cap, within what the machine allows it. */
export const allowed = (d: Pick<WorkerRoom, 'cap' | 'ceiling' | 'limit'>): number => Math.max(0, Math.min(d.cap, machineAllows(d)));

/** The workers a lane could use right now if it had the machine to itself. */
export const wanted = (d: WorkerRoom): number => Math.min(allowed(d), d.waiting + d.busy);

/** Work waits and every worker the lane is allowed is busy: only a higher limit would run more. */
export const atLimit = (d: WorkerRoom): boolean => d.waiting > 0 && d.busy >= allowed(d);

/**
 * Held back by its cap and nothing else: at its limit, the cap is below what the machine allows it
 * (so raising it would run more), and the machine has a worker to spare. At cap 0 "every worker
 * busy" holds vacuously.
 */
export const capIsTheLimit = (d: WorkerRoom & { machineInUse: number }): boolean =>
  atLimit(d) && d.cap < machineAllows(d) && d.machineInUse < d.ceiling;
