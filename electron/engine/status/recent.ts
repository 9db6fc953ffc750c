// A lane's recent figures for its status: jobs finished per minute, from per-second counts kept
// in memory (seeded from the store at start), and the median wait, a query cached for a couple
// of seconds because figures over minutes need not be recomputed on every event.
import type { LanesEvent } from '../../../shared/events.js';
import type { JobQueries, RecentFigures } from '../store/job-queries.js';
import { RATE_WINDOW_S, RecentRate } from './recent-rate.js';

const WAIT_CACHE_MS = 2_000;

export class RecentFiguresBoard {
  private readonly rate = new RecentRate();
  private readonly waits = new Map<string, { at: number; ms: number | null }>();

  constructor(
    private readonly queries: JobQueries,
    now: number,
  ) {
    for (const r of queries.finishedPerSecond(now - RATE_WINDOW_S * 1000)) this.rate.add(r.lane, r.second * 1000, r.n);
  }

  /** Follows the engine's events: finished jobs count, removed lanes are forgotten. */
  readonly observe = (e: LanesEvent): void => {
    if (e.type === 'job' && e.data.finishedAt !== null && (e.data.state === 'succeeded' || e.data.state === 'failed')) {
      this.rate.add(e.data.lane, e.data.finishedAt);
    }
    if (e.type === 'laneRemoved') {
      this.rate.forget(e.data.name);
      this.waits.delete(e.data.name);
    }
  };

  of(lane: string, now: number): RecentFigures {
    let wait = this.waits.get(lane);
    if (!wait || now - wait.at >= WAIT_CACHE_MS) {
      wait = { at: now, ms: this.queries.medianWait(lane) };
      this.waits.set(lane, wait);
    }
    return { throughputPerMin: this.rate.perMinute(lane, now), medianWaitMs: wait.ms };
  }
}
