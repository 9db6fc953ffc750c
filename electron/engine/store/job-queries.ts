// Read-side questions about jobs: pages for the window and CLI, and recent figures per lane.
import type { JobPage, JobState } from '../../../shared/model.js';
import type { Db } from './db.js';
import { SUMMARY_COLUMNS, toSummary, type SummaryRow } from './job-rows.js';
import type { LaneCounts } from './lanes.js';

export interface JobFilter {
  lane?: string | undefined;
  state?: JobState | undefined;
  beforeId?: number | undefined;
  limit: number;
}

export interface RecentFigures {
  throughputPerMin: number;
  medianWaitMs: number | null;
}

export class JobQueries {
  private readonly waits;

  constructor(private readonly db: Db) {
    this.waits = db.prepare<[string], { w: number }>(
      `SELECT started_at - created_at AS w FROM jobs
       WHERE lane = ? AND finished_at IS NOT NULL AND started_at IS NOT NULL
       ORDER BY finished_at DESC LIMIT 200`,
    );
  }

  /** Newest first. `total` comes from the maintained counts, never a COUNT over the table. */
  page(filter: JobFilter, counts: ReadonlyMap<string, LaneCounts>): Omit<JobPage, 'seq'> {
    const where: string[] = [];
    const args: (string | number)[] = [];
    if (filter.lane) {
      where.push('lane = ?');
      args.push(filter.lane);
    }
    if (filter.state) {
      where.push('state = ?');
      args.push(filter.state);
    }
    if (filter.beforeId) {
      where.push('id < ?');
      args.push(filter.beforeId);
    }
    const sql = `SELECT ${SUMMARY_COLUMNS} FROM jobs ${where.length ? 'WHERE ' + where.join(' AND ') : ''} ORDER BY id DESC LIMIT ?`;
    const rows = this.db.prepare(sql).all(...args, filter.limit + 1) as SummaryRow[];
    const more = rows.length > filter.limit;
    const jobs = rows.slice(0, filter.limit).map(toSummary);
    return { jobs, total: totalFor(filter, counts), nextBeforeId: more ? (jobs.at(-1)?.id ?? null) : null };
  }

  /** Median ms from queued to started over the lane's last 200 finished jobs; null when none. */
  medianWait(lane: string): number | null {
    const waits = this.waits
      .all(lane)
      .map((r) => r.w)
      .sort((a, b) => a - b);
    const mid = waits.length >> 1;
    return waits.length === 0 ? null : waits.length % 2 ? waits[mid]! : (waits[mid - 1]! + waits[mid]!) / 2;
  }

  /** Jobs that finished (succeeded or failed) since `since`, per lane and second: seeds the rate. */
  finishedPerSecond(since: number): { lane: string; second: number; n: number }[] {
    return this.db
      .prepare<[number], { lane: string; second: number; n: number }>(
        `SELECT lane, finished_at / 1000 AS second, count(*) AS n FROM jobs
         WHERE finished_at >= ? AND state IN ('succeeded', 'failed') GROUP BY lane, second`,
      )
      .all(since);
  }
}

function totalFor(f: JobFilter, counts: ReadonlyMap<string, LaneCounts>): number {
  const lanes = f.lane ? [counts.get(f.lane)] : [...counts.values()];
  let total = 0;
  for (const c of lanes) {
    if (!c) continue;
    total += f.state ? c[f.state] : c.queued + c.running + c.succeeded + c.failed + c.cancelled;
  }
  return total;
}
