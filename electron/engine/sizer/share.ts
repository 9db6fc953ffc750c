// How the machine's workers are divided when lanes compete for the ceiling. Pure.

export interface Claim {
  name: string;
  /** What the lane would run with the machine to itself: min(cap, ceiling, waiting + busy). */
  want: number;
  /** Work it holds: waiting + busy. */
  backlog: number;
  /** Of that, what no worker has taken yet; none means its workers are on its last jobs. */
  waiting?: number;
  /** Workers it runs now (idle + busy), so a settled division is not reshuffled. */
  running: number;
  /** Since when it has held a worker without a break; null while it holds none. */
  servedSince?: number | null;
  /** Since when it has had work and no worker; null otherwise. */
  waitingSince?: number | null;
  /** How long a turn lasts for it (turns.ts): past that, it yields its worker to a lane that waits. */
  turnMs?: number;
}

/**
 * More lanes want a worker than the machine has: the machine is shared over time, one worker per
 * lane, in turns. A lane within its turn keeps its worker (so nobody is stopped mid-stream for a
 * bigger backlog); then lanes that have waited longest; a lane whose turn is over keeps its
 * worker only if a slot is left after every waiting lane has one. A lane whose workers are on its
 * last jobs comes after all of those: its worker is promised to a waiting lane and goes on to it
 * at the end of its job, with no moment idle between. Workers change hands at job boundaries, so
 * a lane waits at most about (lanes ÷ ceiling) turns.
 */
function inTurns(wanting: readonly Claim[], ceiling: number, now: number): Map<string, number> {
  const share = new Map<string, number>();
  const byName = (a: Claim, b: Claim) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  const finishing = (c: Claim) => c.running > 0 && c.waiting === 0;
  const inTurn = (c: Claim) => c.running > 0 && c.servedSince != null && now - c.servedSince < (c.turnMs ?? Infinity);
  const order = [
    ...wanting.filter((c) => inTurn(c) && !finishing(c)).sort((a, b) => a.servedSince! - b.servedSince! || byName(a, b)),
    ...wanting.filter((c) => c.running === 0).sort((a, b) => (a.waitingSince ?? now) - (b.waitingSince ?? now) || byName(a, b)),
    ...wanting.filter((c) => c.running > 0 && !inTurn(c) && !finishing(c)).sort((a, b) => a.servedSince! - b.servedSince! || byName(a, b)),
    ...wanting.filter(finishing).sort((a, b) => a.servedSince! - b.servedSince! || byName(a, b)),
  ];
  order.forEach((c, i) => share.set(c.name, i < ceiling ? 1 : 0));
  return share;
}

/**
 * Deterministic, fair division of `ceiling` workers when every lane that wants one can have one:
 *  1. every lane that wants a worker gets one before any lane gets a second;
 *  2. lanes keep the workers they already run (up to what they want), so two lanes with similar
 *     backlogs do not trade a worker back and forth on every pass;
 *  3. what is left goes one at a time to the lane with the largest backlog not yet covered.
 * Ties go to the larger backlog, then the name, so the answer never depends on input order.
 */
export function fairShares(claims: readonly Claim[], ceiling: number, now = 0): Map<string, number> {
  const wanting = claims.filter((c) => c.want > 0);
  if (wanting.length > ceiling) return new Map([...claims.map((c): [string, number] => [c.name, 0]), ...inTurns(wanting, ceiling, now)]);
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
