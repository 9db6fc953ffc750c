// How the machine's workers are divided when lanes compete for the ceiling. Pure.

export interface Claim {
  name: string;
  /** What the lane would run with the machine to itself: min(cap, ceiling, waiting + busy). */
  want: number;
  /** Work it holds: waiting + busy. */
  backlog: number;
  /** Workers it runs now (idle + busy), so a settled division is not reshuffled. */
  running: number;
}

/**
 * Deterministic, fair division of `ceiling` workers:
 *  1. every lane that wants a worker gets one before any lane gets a second;
 *  2. lanes keep the workers they already run (up to what they want), so two lanes with similar
 *     backlogs do not trade a worker back and forth on every pass;
 *  3. what is left goes one at a time to the lane with the largest backlog not yet covered.
 * Ties go to the larger backlog, then the name, so the answer never depends on input order.
 */
export function fairShares(claims: readonly Claim[], ceiling: number): Map<string, number> {
  const share = new Map<string, number>(claims.map((c) => [c.name, 0]));
  const order = claims
    .filter((c) => c.want > 0)
    .sort((a, b) => b.backlog - a.backlog || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  let left = ceiling;
  const give = (c: Claim, n: number) => {
    const g = Math.min(n, left);
    if (g <= 0) return;
    share.set(c.name, share.get(c.name)! + g);
    left -= g;
  };

  for (const c of order) give(c, 1);
  for (const c of order) give(c, Math.min(c.want, c.running) - share.get(c.name)!);
  while (left > 0) {
    let best: Claim | undefined;
    let bestGap = 0;
    for (const c of order) {
      const s = share.get(c.name)!;
      if (s >= c.want) continue;
      const gap = c.backlog - s;
      if (best === undefined || gap > bestGap) {
        best = c;
        bestGap = gap;
      }
    }
    if (!best) break;
    give(best, 1);
  }
  return share;
}
