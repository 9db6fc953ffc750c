// What the sizing pass remembers from one pass to the next, and nothing else: when each lane last
// shrank, since when it had surplus, since when it has been served or waited, the caps it last
// saw, the machine's remembered state, and the reading at which memory was last critically low.
// The policy reads it as part of what it observes; only the pass writes it.
import { INITIAL_LIMITS_STATE, type LimitsState } from '../machine/limits.js';

export class SizerHistory {
  readonly lastShrinkAt = new Map<string, number>();
  readonly surplusSince = new Map<string, number>();
  /** Since when each lane has had a worker without a break, and since when each has waited for one. */
  readonly servedSince = new Map<string, number>();
  readonly waitingSince = new Map<string, number>();
  /** Each lane's cap at the last pass: a change since is a person's, and the ledger says so. */
  readonly caps = new Map<string, number>();
  /** Where the person was and the load already taken off (machine/limits.ts). */
  machine: LimitsState = INITIAL_LIMITS_STATE;
  /** The reading (its `at`) at which a worker was last stopped for critically low memory. */
  lastCriticalAt: number | null = null;

  /** Keeps `key` since the first moment `now` it held, and forgets it when it no longer does. */
  static since(map: Map<string, number>, key: string, holds: boolean, now: number): number | null {
    if (!holds) {
      map.delete(key);
      return null;
    }
    if (!map.has(key)) map.set(key, now);
    return map.get(key)!;
  }

  /** Surplus as the last decision reported it: kept since its first moment, dropped once gone. */
  rememberSurplus(surplus: readonly string[], now: number): void {
    for (const lane of this.surplusSince.keys()) if (!surplus.includes(lane)) this.surplusSince.delete(lane);
    for (const lane of surplus) if (!this.surplusSince.has(lane)) this.surplusSince.set(lane, now);
  }

  forget(lane: string): void {
    this.lastShrinkAt.delete(lane);
    this.surplusSince.delete(lane);
    this.servedSince.delete(lane);
    this.waitingSince.delete(lane);
    this.caps.delete(lane);
  }
}
