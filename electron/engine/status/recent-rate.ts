// A lane's live pace: jobs finished per minute over the last 30 s, kept as per-second counts in
// memory. While the lane has been at work for less than that, over the time it has been at work,
// so a lane that just started (or whose cap was just raised from 0) shows its pace within
// seconds; when nothing finishes the old seconds fall out of the window and the pace falls to 0.
// Pure: every time is passed in.
export const RATE_WINDOW_S = 30;
/** Shortest span a pace is taken over: one job finishing in the first second is not 60 a minute. */
const MIN_SPAN_S = 5;

interface Ring {
  /** The second `counts[newest % RATE_WINDOW_S]` stands for, after the last roll. */
  newest: number;
  counts: Uint32Array;
  /** When this stretch of work began (the first start or finish after a quiet window). */
  activeSince: number;
  lastActivity: number;
}

export class RecentRate {
  private readonly lanes = new Map<string, Ring>();

  /** A job of the lane started or finished at `atMs`: it is at work. */
  active(lane: string, atMs: number): Ring {
    let ring = this.lanes.get(lane);
    if (!ring || atMs - ring.lastActivity > RATE_WINDOW_S * 1000) {
      ring = { newest: Math.floor(atMs / 1000), counts: new Uint32Array(RATE_WINDOW_S), activeSince: atMs, lastActivity: atMs };
      this.lanes.set(lane, ring);
    }
    ring.lastActivity = Math.max(ring.lastActivity, atMs);
    return ring;
  }

  add(lane: string, atMs: number, n = 1): void {
    const second = Math.floor(atMs / 1000);
    const ring = this.roll(this.active(lane, atMs), second);
    const age = ring.newest - second;
    if (age >= 0 && age < RATE_WINDOW_S) ring.counts[second % RATE_WINDOW_S]! += n;
  }

  /**
   * Jobs per minute, how many finished in the window it is taken over, and how long this stretch
   * of work has lasted within that window (ms): a young stretch's pace is rough.
   */
  pace(lane: string, nowMs: number): { perMinute: number; finished: number; spanMs: number } {
    const ring = this.lanes.get(lane);
    if (!ring) return { perMinute: 0, finished: 0, spanMs: 0 };
    this.roll(ring, Math.floor(nowMs / 1000));
    let finished = 0;
    for (const c of ring.counts) finished += c;
    const spanS = Math.min(RATE_WINDOW_S, Math.max(MIN_SPAN_S, (nowMs - ring.activeSince) / 1000));
    return { perMinute: (finished / spanS) * 60, finished, spanMs: Math.min(RATE_WINDOW_S * 1000, Math.max(0, nowMs - ring.activeSince)) };
  }

  /**
   * Work was held (a pause) and goes on from `atMs`: the pace starts again. Otherwise the seconds
   * of the pause stay in the window as seconds in which nothing finished, and right after resume
   * the outlook reads many times too long.
   */
  restart(atMs: number, lane?: string): void {
    for (const [name, ring] of this.lanes) {
      if (lane !== undefined && name !== lane) continue;
      ring.counts.fill(0);
      ring.newest = Math.floor(atMs / 1000);
      ring.activeSince = atMs;
      ring.lastActivity = atMs;
    }
  }

  perMinute(lane: string, nowMs: number): number {
    return this.pace(lane, nowMs).perMinute;
  }

  forget(lane: string): void {
    this.lanes.delete(lane);
  }

  /** Moves the ring up to `second`, clearing the seconds that fell out of the window. */
  private roll(ring: Ring, second: number): Ring {
    if (second > ring.newest) {
      const steps = Math.min(second - ring.newest, RATE_WINDOW_S);
      for (let s = 1; s <= steps; s++) ring.counts[(ring.newest + s) % RATE_WINDOW_S] = 0;
      ring.newest = second;
    }
    return ring;
  }
}
