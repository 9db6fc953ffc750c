// How long something that keeps failing waits before it is tried again: a job's retry after a
// failed attempt, and a lane's next worker after its worker command died while starting. Doubling
// from a second to five minutes, so a job that kills its worker, or a command that cannot start,
// costs a handful of tries a minute instead of a spin. Pure.

export const BACKOFF_FIRST_MS = 1_000;
export const BACKOFF_MAX_MS = 300_000;

/** The wait after the `n`th failure in a row (1 → 1 s, 2 → 2 s, 3 → 4 s … at most 5 min). */
export function backoffMs(n: number): number {
  if (n < 1) return 0;
  return Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** Math.min(n - 1, 30));
}
