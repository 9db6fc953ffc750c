// How long until what a lane holds is done: the one estimate the status, the CLI, the tray and the
// window show. Pure: facts in, an estimate (or why there is none) out.
//
// A pace alone (jobs finished per minute) promises too little for long jobs: ten short jobs that
// finished a moment ago say nothing about the ten-minute one that has run 26 s. So the estimate is
// never less than what the running jobs' own time allows: each is expected to take the lane's
// typical run, less what it has run already, and what waits takes a typical run each, spread over
// the workers. A job already past the longest run seen lately has no known end: the estimate is
// "estimating…" until it finishes, as it is before any run of the lane has finished. Paused, no
// estimate at all: nothing would move.
//
// A job that says how far it has got knows better than any pace: its time left is its own rate
// (what it ran to reach its fraction, over that fraction) less what it has run, even on a lane's
// first run and past the longest run seen. Progress that stops moving says nothing more: after
// a quiet longer than its own steps took (STALL_MIN_MS at least), the job is back on the pace rule.
import type { EtaState } from '../../../shared/model.js';
import { median, timeByRuns } from '../sizer/run-time.js';

/** A running job's own word on how far it has got, as its time left is taken from. */
export interface RunProgress {
  /** 0 … 1, the last it said. */
  fraction: number;
  /** How long it had run when its fraction last moved (ms). */
  ranAtMoveMs: number;
  /** How long it took to move that last time: since the move before, or since it started. */
  gapMs: number;
}

/** Progress quiet for this long at least (and thrice its last step) has stalled. */
export const STALL_MIN_MS = 60_000;
const STEPS_BEFORE_STALL = 3;

/** A running job's time left by its own progress; null when it gives none (none said, none yet, or stalled). */
export function leftByProgress(p: RunProgress | null | undefined, ranMs: number): number | null {
  if (!p || p.fraction <= 0) return null;
  if (ranMs - p.ranAtMoveMs > Math.max(STALL_MIN_MS, STEPS_BEFORE_STALL * p.gapMs)) return null;
  return Math.max(0, p.ranAtMoveMs / p.fraction - ranMs);
}

export interface EtaFacts {
  /** Jobs queued, ready or not (they all have to run). */
  queued: number;
  /** How long each running job has run so far (ms). */
  runningFor: readonly number[];
  /** What each of those said of how far it has got, in the same order; absent or null: nothing. */
  progress?: readonly (RunProgress | null)[];
  /** Workers that run the lane's jobs now (at least the running ones). */
  workers: number;
  /** The lane's typical run (median of recent runs, ms) and the longest of them; null before any finished. */
  typicalMs: number | null;
  longestMs: number | null;
  /** Jobs per minute at the live pace; null until a few finished at it. */
  perMinute: number | null;
  paused: boolean;
  /** Its cap is 0: what waits will not move until a person raises it. */
  off: boolean;
}

export interface Eta {
  etaMs: number | null;
  etaState: EtaState;
}

export function estimate(f: EtaFacts): Eta {
  const left = f.queued + f.runningFor.length;
  if (left === 0) return { etaMs: null, etaState: 'none' };
  if (f.paused) return { etaMs: null, etaState: 'paused' };
  if (f.off && f.runningFor.length === 0) return { etaMs: null, etaState: 'off' };
  const runs = runsLeft(f);
  if (runs === null) return { etaMs: null, etaState: 'estimating' };
  const workers = Math.max(1, f.workers, f.runningFor.length);
  const byTime = timeByRuns(runs, f.queued, workers);
  const byPace = f.perMinute !== null && f.perMinute > 0 ? (left / f.perMinute) * 60_000 : 0;
  return { etaMs: Math.round(Math.max(byTime, byPace)), etaState: 'known' };
}

/** The running jobs' time left (each by its own progress where it moves, else the typical run less what it ran), and what a job takes. */
export interface RunsLeft {
  leftMs: number[];
  jobMs: number;
  /** How many of them said it themselves. */
  byProgress: number;
}

/** Null: no honest figure (no run to go by, or one far past every run seen that says nothing). */
export function runsLeft(f: Pick<EtaFacts, 'runningFor' | 'progress' | 'typicalMs' | 'longestMs'>): RunsLeft | null {
  const own = f.runningFor.map((ran, i) => leftByProgress(f.progress?.[i], ran));
  // With no run finished yet, what the running jobs say they will take stands for a typical run.
  const jobMs = f.typicalMs ?? median(own.flatMap((left, i) => (left === null ? [] : [left + f.runningFor[i]!])));
  if (jobMs === null || (f.longestMs === null && own.some((left) => left === null))) return null;
  // A job well past every run seen lately may run on for any time: no honest number until it ends
  // or says how far it has got. (Twice the longest, and a second more, so ordinary spread among
  // short jobs does not flicker it.)
  const beyond = f.longestMs === null ? Infinity : Math.max(2 * f.longestMs, f.longestMs + 1000);
  if (f.runningFor.some((ran, i) => own[i] === null && ran > beyond)) return null;
  return { leftMs: f.runningFor.map((ran, i) => own[i] ?? Math.max(0, jobMs - ran)), jobMs, byProgress: own.filter((l) => l !== null).length };
}
