// Read-side questions about jobs: pages for the window and CLI. Only the hot path has indexes
// of its own (migration 0007), so a listing filtered by state walks the primary key (or the
// lane's index) newest first, a bounded window of ids per request: no page costs the engine
// more than a few milliseconds, however many jobs sit between matches. A page may then hold
// fewer jobs than asked for while `nextBeforeId` says there are more ids to look through.
import type { JobPage, JobState } from '../../../shared/model.js';
import type { Statement } from 'better-sqlite3';
import type { Db } from './db.js';
import { SUMMARY_COLUMNS, toSummary, type SummaryRow } from './job-rows.js';
import type { LaneCounts } from './lanes.js';

export interface JobFilter {
  lane?: string | undefined;
  state?: JobState | undefined;
  beforeId?: number | undefined;
  limit: number;
}

/** Ids one request looks through when the filter has no index to seek with. */
export const SCAN_WINDOW = 20_000;

type Args = (string | number)[];
/** The partial index of unfinished jobs is used only by a query that repeats its condition. */
const ACTIVE = "state IN ('queued', 'running')";

export class JobQueries {
  private readonly bounds;
  private readonly statements = new Map<string, Statement<Args, SummaryRow>>();

  constructor(private readonly db: Db) {
    this.bounds = db.prepare<[], { lo: number | null; hi: number | null }>('SELECT min(id) AS lo, max(id) AS hi FROM jobs');
  }

  /** Newest first. `total` comes from the maintained counts, never a COUNT over the table. */
  page(filter: JobFilter, counts: ReadonlyMap<string, LaneCounts>): Omit<JobPage, 'seq'> {
    const { rows, windowFloor } = this.rows(filter);
    const more = rows.length > filter.limit;
    const jobs = rows.slice(0, filter.limit).map(toSummary);
    const nextBeforeId = more ? (jobs.at(-1)?.id ?? null) : windowFloor;
    return { jobs, total: totalFor(filter, counts), nextBeforeId };
  }

  /** The rows, and where an unfinished window stopped (the next page starts below it). */
  private rows(f: JobFilter): { rows: SummaryRow[]; windowFloor: number | null } {
    const before = f.beforeId ?? Number.MAX_SAFE_INTEGER;
    const lane = f.lane ? ['lane = ?'] : [];
    const laneArg: Args = f.lane ? [f.lane] : [];
    // States with an index that holds only them: seek, whatever the table holds.
    // The unfinished index holds state in its key, so finding the running few reads only it.
    if (f.state === 'running') return { rows: this.select('jobs INDEXED BY jobs_active', [...lane, ACTIVE, "state = 'running'", 'id < ?'], [...laneArg, before], f.limit), windowFloor: null };
    if (f.state === 'failed' || f.state === 'cancelled') {
      return { rows: this.select('jobs INDEXED BY jobs_unhappy', [...lane, "state IN ('failed', 'cancelled')", 'state = ?', 'id < ?'], [...laneArg, f.state, before], f.limit), windowFloor: null };
    }
    if (f.state === 'queued' && f.lane) return { rows: this.select('jobs INDEXED BY jobs_active', ['lane = ?', ACTIVE, "state = 'queued'", 'id < ?'], [f.lane, before], f.limit), windowFloor: null };
    if (!f.state) {
      const from = f.lane ? 'jobs INDEXED BY jobs_lane' : 'jobs';
      return { rows: this.select(from, [...lane, 'id < ?'], [...laneArg, before], f.limit), windowFloor: null };
    }
    // Succeeded, or queued in every lane: most rows may not match, so look through a window.
    const { lo, hi } = this.bounds.get() ?? { lo: null, hi: null };
    if (lo === null || hi === null) return { rows: [], windowFloor: null };
    const top = Math.min(before, hi + 1);
    const floor = Math.max(lo, top - SCAN_WINDOW);
    const from = f.lane ? 'jobs INDEXED BY jobs_lane' : 'jobs';
    const rows = this.select(from, [...lane, 'id >= ?', 'id < ?', 'state = ?'], [...laneArg, floor, top, f.state], f.limit);
    return { rows, windowFloor: rows.length > f.limit || floor <= lo ? null : floor };
  }

  private select(from: string, where: string[], args: Args, limit: number): SummaryRow[] {
    const sql = `SELECT ${SUMMARY_COLUMNS} FROM ${from} WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT ?`;
    let statement = this.statements.get(sql);
    if (!statement) this.statements.set(sql, (statement = this.db.prepare<Args, SummaryRow>(sql)));
    return statement.all(...args, limit + 1);
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
