// Dependents that never ran: failed because a job they run after could not succeed, which they
// keep as `blocked_by` (migration 0019), set in the transaction that failed them and cleared when
// they are queued again. They are failed jobs to the store, but a person counts them apart from
// jobs that ran and failed. Counted from their own partial index, and only again once the lane's
// counts other than its successes have moved: a lane with no failed job costs nothing.
import type { LaneCounts } from './counts.js';
import type { Db } from './db.js';

/** The blocked, as their index (jobs_blocked) holds them; a query must repeat it to use it. */
export const BLOCKED = "state = 'failed' AND blocked_by IS NOT NULL";

const BLOCKED_SQL = `SELECT count(*) AS n FROM jobs INDEXED BY jobs_blocked WHERE lane = ? AND ${BLOCKED}`;

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
