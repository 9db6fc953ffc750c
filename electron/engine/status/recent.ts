// A lane's recent figures for its status, kept in memory from the engine's own events: its live
// pace (recent-rate.ts), the median wait of the jobs that started last, and how long its worker
// command took to load.
// Nothing here reads the store: a figure over minutes must not cost a query per status, and
// after a restart the figures build up again from what runs.
import type { LanesEvent } from '../../../shared/events.js';
import type { JobProgress, Paused } from '../../../shared/model.js';
import { RecentRate } from './recent-rate.js';
import { median } from '../sizer/run-time.js';

export interface RecentFigures {
  throughputPerMin: number;
  /** How many finished in the window the pace is taken over: an ETA needs a few. */
  finishedLately: number;
  /** How long the stretch of work the pace is taken over has lasted, within its window (ms). */
  paceSpanMs: number;
  medianWaitMs: number | null;
  /** How long the lane's worker command took to load, the last time one did. */
  workerLoadMs: number | null;
  /** The median and the longest of its recent runs (started to finished, ms); null before one finished. */
  typicalRunMs: number | null;
  longestRunMs: number | null;
  /** When each of its jobs running now (as this engine saw them start) started. */
  runningSince: number[];
  /** What each of those said of how far it has got, in the same order; null or absent: nothing yet. */
  runningProgress?: (RunMove | null)[];
  /** The longest-running of them that said how far it has got, with its words; null: none did. */
  longestReporting?: { id: number; startedAt: number; progress: JobProgress } | null;
}

/** A running job's progress as the estimate reads it: how far, when it last moved, how long that step took. */
export interface RunMove {
  fraction: number;
  movedAt: number;
  gapMs: number;
}

interface Running {
  since: number;
  move: RunMove | null;
  /** The last it said, as it said it. */
  said: JobProgress | null;
}

/** Waits of the lane's most recently started jobs that the median is taken over. */
const WAITS_KEPT = 200;
/** Runs of the lane's most recently finished jobs its typical run is taken over. */
const RUNS_KEPT = 50;

interface Ring {
  ring: number[];
  next: number;
}

export class RecentFiguresBoard {
  private readonly rate = new RecentRate();
  private readonly waits = new Map<string, Ring>();
  private readonly runs = new Map<string, Ring>();
  /** Jobs running now, per lane: id → when it started, and how far it says it has got. */
  private readonly running = new Map<string, Map<number, Running>>();
  private readonly loads = new Map<string, number>();
  /** Per lane, how often a running job said how far it has got. */
  private readonly moves = new Map<string, number>();

  /** Each lane's own pause as last seen: its end restarts the lane's pace, as a resume of all work does. */
  private readonly lanePauses = new Map<string, Paused>();

  /** `now`: when a resume is heard (the event carries no time of its own). */
  constructor(private readonly now: () => number = Date.now) {}

  /** Follows the engine's events: finished jobs count, started ones say how long they waited. */
  readonly observe = (e: LanesEvent): void => {
    if (e.type === 'job' && e.data.finishedAt !== null && (e.data.state === 'succeeded' || e.data.state === 'failed')) {
      this.rate.add(e.data.lane, e.data.finishedAt);
      if (e.data.startedAt !== null) keep(this.runs, e.data.lane, Math.max(0, e.data.finishedAt - e.data.startedAt), RUNS_KEPT);
    }
    if (e.type === 'job') {
      let running = this.running.get(e.data.lane);
      if (e.data.state === 'running' && e.data.startedAt !== null) {
        if (!running) this.running.set(e.data.lane, (running = new Map()));
        running.set(e.data.id, { since: e.data.startedAt, move: null, said: null });
      } else running?.delete(e.data.id);
    }
    if (e.type === 'progress' && e.data.progress) this.moved(e.data.lane, e.data.id, e.data.progress);
    if (e.type === 'job' && e.data.state === 'running' && e.data.startedAt !== null) {
      this.rate.active(e.data.lane, e.data.startedAt);
      if (e.data.attempts === 1) keep(this.waits, e.data.lane, e.data.startedAt - e.data.createdAt, WAITS_KEPT);
    }
    // A resume starts every lane's pace again: the paused seconds are no pace of theirs.
    if (e.type === 'paused' && e.data.paused === null) this.rate.restart(this.now());
    if (e.type === 'laneRemoved') {
      this.rate.forget(e.data.name);
      this.waits.delete(e.data.name);
      this.runs.delete(e.data.name);
      this.running.delete(e.data.name);
      this.loads.delete(e.data.name);
      this.moves.delete(e.data.name);
      this.lanePauses.delete(e.data.name);
    }
  };

  /**
   * A lane's own pause as the status sees it now (null: not paused). When it ends — resumed, or
   * at its own time — the lane's pace starts again from that moment: the paused seconds are no
   * pace of its, as they are not after a resume of all work.
   */
  lanePaused(lane: string, paused: Paused | null, now: number): void {
    const was = this.lanePauses.get(lane);
    if (paused) this.lanePauses.set(lane, paused);
    else if (was) {
      this.lanePauses.delete(lane);
      this.rate.restart(was.until !== null && was.until <= now ? was.until : now, lane);
    }
  }

  /** What a running job said; only a fraction that grew is a step (the same fraction with new words is not). */
  private moved(lane: string, id: number, said: JobProgress): void {
    const run = this.running.get(lane)?.get(id);
    if (!run) return;
    run.said = said;
    this.moves.set(lane, (this.moves.get(lane) ?? 0) + 1);
    const { fraction, at } = said;
    if (run.move !== null && fraction <= run.move.fraction) return;
    run.move = { fraction, movedAt: at, gapMs: Math.max(0, at - (run.move?.movedAt ?? run.since)) };
  }

  /** How often the lane's running jobs said how far they have got: a status built before the last is out of date. */
  progressed(lane: string): number {
    return this.moves.get(lane) ?? 0;
  }

  /** A worker of the lane has its command loaded, after `ms`. */
  loaded(lane: string, ms: number): void {
    this.loads.set(lane, ms);
  }

  of(lane: string, now: number): RecentFigures {
    const pace = this.rate.pace(lane, now);
    const runs = this.runs.get(lane)?.ring ?? [];
    const byId = [...(this.running.get(lane) ?? [])];
    const running = byId.map(([, r]) => r);
    const reporting = byId.filter(([, r]) => r.said !== null).sort(([, a], [, b]) => a.since - b.since)[0];
    return {
      throughputPerMin: pace.perMinute,
      finishedLately: pace.finished,
      paceSpanMs: pace.spanMs,
      medianWaitMs: median(this.waits.get(lane)?.ring ?? []),
      workerLoadMs: this.loads.get(lane) ?? null,
      typicalRunMs: median(runs),
      longestRunMs: runs.length > 0 ? Math.max(...runs) : null,
      runningSince: running.map((r) => r.since),
      runningProgress: running.map((r) => r.move),
      longestReporting: reporting ? { id: reporting[0], startedAt: reporting[1].since, progress: reporting[1].said! } : null,
    };
  }
}

/** The latest `most` values of a lane, oldest overwritten first. */
function keep(rings: Map<string, Ring>, lane: string, value: number, most: number): void {
  let r = rings.get(lane);
  if (!r) rings.set(lane, (r = { ring: [], next: 0 }));
  if (r.ring.length < most) r.ring.push(value);
  else r.ring[r.next] = value;
  r.next = (r.next + 1) % most;
}
