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
import type { EtaState } from '../../../shared/model.js';

export interface EtaFacts {
  /** Jobs queued, ready or not (they all have to run). */
  queued: number;
  /** How long each running job has run so far (ms). */
  runningFor: readonly number[];
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
  if (f.typicalMs === null || f.longestMs === null) return { etaMs: null, etaState: 'estimating' };
  // A job well past every run seen lately may run on for any time: no honest number until it ends.
  // (Twice the longest, and a second more, so ordinary spread among short jobs does not flicker it.)
  const beyond = Math.max(2 * f.longestMs, f.longestMs + 1000);
  if (f.runningFor.some((ran) => ran > beyond)) return { etaMs: null, etaState: 'estimating' };
  const remaining = f.runningFor.map((ran) => Math.max(0, f.typicalMs! - ran));
  const workers = Math.max(1, f.workers, f.runningFor.length);
  const byTime = Math.max(0, ...remaining, (remaining.reduce((a, b) => a + b, 0) + f.queued * f.typicalMs) / workers);
  const byPace = f.perMinute !== null && f.perMinute > 0 ? (left / f.perMinute) * 60_000 : 0;
  return { etaMs: Math.round(Math.max(byTime, byPace)), etaState: 'known' };
}
