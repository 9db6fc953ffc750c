// How long work takes, from its runs: the one rule the lane's estimate (status/eta.ts) and the
// nudge's "about N min at 3 workers" (nudge.ts) both use, and the median both take their typical
// figures by. One definition below both, so the two figures a person reads side by side can
// never be worked out two ways. Pure.

/** The middle of some measurements (the mean of the two middle ones for an even count); null for none. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The running jobs' time left each (ms), and what one job takes. */
export interface RunTimes {
  leftMs: readonly number[];
  jobMs: number;
}

/**
 * How long until the running jobs and `waiting` more are done on `workers`: the time left of all
 * of them (a job's time for each that waits) spread over the workers, and never less than the
 * longest a running job still has to go, since no worker can share that one.
 */
export function timeByRuns(runs: RunTimes, waiting: number, workers: number): number {
  const running = runs.leftMs.reduce((a, b) => a + b, 0);
  return Math.max(0, ...runs.leftMs, (running + waiting * runs.jobMs) / workers);
}
