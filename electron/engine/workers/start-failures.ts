// Lanes whose worker command keeps dying as it starts: the next worker waits, longer each time in
// a row, so a lane that cannot work does not spin. The fleet records it as workers die; the
// sizing pass reads it as part of what it observes.
import { backoffMs } from '../backoff.js';

export class StartFailures {
  private readonly byLane = new Map<string, { streak: number; until: number }>();

  /** A worker of the lane died before it was ready (its command cannot start, it crashed as it started). */
  failed(lane: string, now: number): { streak: number; until: number } {
    const streak = (this.byLane.get(lane)?.streak ?? 0) + 1;
    const entry = { streak, until: now + backoffMs(streak) };
    this.byLane.set(lane, entry);
    return entry;
  }

  /** A job of the lane succeeded: its workers work after all. */
  succeeded(lane: string): void {
    this.byLane.delete(lane);
  }

  /** Until when the lane holds off starting workers; null if it does not (any more). */
  blockedUntil(lane: string, now: number): number | null {
    const until = this.byLane.get(lane)?.until ?? null;
    return until !== null && until > now ? until : null;
  }

  forget(lane: string): void {
    this.byLane.delete(lane);
  }
}
