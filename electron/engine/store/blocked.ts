// Dependents that never ran: failed because a job they run after ended badly (their error is
// shared/dependencies.ts' words). They are failed jobs to the store, but a person counts them
// apart from jobs that ran and failed. Counted from the failed and cancelled jobs' own index, and
// only again once the lane's counts other than its successes have moved: a lane with no failed job costs nothing.
import type { LaneCounts } from './counts.js';
import type { Db } from './db.js';

/** The three endings of dependencyEnded(), as blockedBy() reads them back. */
export const BLOCKED_ERROR = "(error GLOB 'job [0-9]* failed' OR error GLOB 'job [0-9]* was cancelled' OR error GLOB 'job [0-9]* did not succeed')";

const BLOCKED_SQL = `SELECT count(*) AS n FROM jobs INDEXED BY jobs_unhappy WHERE lane = ? AND state IN ('failed', 'cancelled') AND state = 'failed' AND ${BLOCKED_ERROR}`;

export class BlockedCounts {
  private readonly count;
  private readonly seen = new Map<string, { key: string; n: number }>();

  constructor(db: Db) {
    this.count = db.prepare<[string], { n: number }>(BLOCKED_SQL);
  }

  /** Of the lane's failed jobs, how many never ran for a job they run after. */
  of(lane: string, c: LaneCounts): number {
    if (c.failed === 0) return 0;
    // Not the succeeded count: on a busy lane it moves with every job, and a job that succeeds
    // changes no failed row. A dependent failing, a retry or a clean moves one of these.
    const key = `${c.queued}|${c.running}|${c.failed}|${c.cancelled}`;
    const seen = this.seen.get(lane);
    if (seen?.key === key) return seen.n;
    const n = Math.min(c.failed, this.count.get(lane)?.n ?? 0);
    this.seen.set(lane, { key, n });
    return n;
  }
}
