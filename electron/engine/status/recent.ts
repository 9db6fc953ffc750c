// A lane's recent figures for its status, kept in memory from the engine's own events: its live
// pace (recent-rate.ts), the median wait of the jobs that started last, and how long its worker
// command took to load.
// Nothing here reads the store: a figure over minutes must not cost a query per status, and
// after a restart the figures build up again from what runs.
import type { LanesEvent } from '../../../shared/events.js';
import { RecentRate } from './recent-rate.js';

export interface RecentFigures {
  throughputPerMin: number;
  /** How many finished in the window the pace is taken over: an ETA needs a few. */
  finishedLately: number;
  medianWaitMs: number | null;
  /** How long the lane's worker command took to load, the last time one did. */
  workerLoadMs: number | null;
}

/** Waits of the lane's most recently started jobs that the median is taken over. */
const WAITS_KEPT = 200;

export class RecentFiguresBoard {
  private readonly rate = new RecentRate();
  private readonly waits = new Map<string, { ring: number[]; next: number }>();
  private readonly loads = new Map<string, number>();

  /** Follows the engine's events: finished jobs count, started ones say how long they waited. */
  readonly observe = (e: LanesEvent): void => {
    if (e.type === 'job' && e.data.finishedAt !== null && (e.data.state === 'succeeded' || e.data.state === 'failed')) {
      this.rate.add(e.data.lane, e.data.finishedAt);
    }
    if (e.type === 'job' && e.data.state === 'running' && e.data.startedAt !== null) {
      this.rate.active(e.data.lane, e.data.startedAt);
      if (e.data.attempts === 1) this.waited(e.data.lane, e.data.startedAt - e.data.createdAt);
    }
    if (e.type === 'laneRemoved') {
      this.rate.forget(e.data.name);
      this.waits.delete(e.data.name);
      this.loads.delete(e.data.name);
    }
  };

  /** A worker of the lane has its command loaded, after `ms`. */
  loaded(lane: string, ms: number): void {
    this.loads.set(lane, ms);
  }

  of(lane: string, now: number): RecentFigures {
    const pace = this.rate.pace(lane, now);
    return { throughputPerMin: pace.perMinute, finishedLately: pace.finished, medianWaitMs: median(this.waits.get(lane)?.ring ?? []), workerLoadMs: this.loads.get(lane) ?? null };
  }

  private waited(lane: string, ms: number): void {
    let w = this.waits.get(lane);
    if (!w) this.waits.set(lane, (w = { ring: [], next: 0 }));
    if (w.ring.length < WAITS_KEPT) w.ring.push(ms);
    else w.ring[w.next] = ms;
    w.next = (w.next + 1) % WAITS_KEPT;
  }
}

function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
