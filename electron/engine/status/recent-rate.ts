// Jobs finished per minute, per lane, over the last few minutes — kept as per-second counts in
// memory. Counting them in SQL instead means scanning every job a busy lane finished in the
// window (a million rows at a few thousand jobs a second) each time a status is built.
export const RATE_WINDOW_S = 300;

interface Ring {
  /** The second `counts[0]` stands for, after the last roll. */
  newest: number;
  counts: Uint32Array;
}

export class RecentRate {
  private readonly lanes = new Map<string, Ring>();

  add(lane: string, atMs: number, n = 1): void {
    const second = Math.floor(atMs / 1000);
    const ring = this.roll(lane, second);
    const age = ring.newest - second;
    if (age >= 0 && age < RATE_WINDOW_S) ring.counts[second % RATE_WINDOW_S]! += n;
  }

  perMinute(lane: string, nowMs: number): number {
    const ring = this.roll(lane, Math.floor(nowMs / 1000));
    let total = 0;
    for (const c of ring.counts) total += c;
    return total / (RATE_WINDOW_S / 60);
  }

  forget(lane: string): void {
    this.lanes.delete(lane);
  }

  /** Moves the ring up to `second`, clearing the seconds that fell out of the window. */
  private roll(lane: string, second: number): Ring {
    let ring = this.lanes.get(lane);
    if (!ring) {
      ring = { newest: second, counts: new Uint32Array(RATE_WINDOW_S) };
      this.lanes.set(lane, ring);
    }
    if (second > ring.newest) {
      const steps = Math.min(second - ring.newest, RATE_WINDOW_S);
      for (let s = 1; s <= steps; s++) ring.counts[(ring.newest + s) % RATE_WINDOW_S] = 0;
      ring.newest = second;
    }
    return ring;
  }
}
