// Read-side questions about jobs: pages for the window and CLI. Only the hot path has indexes
// of its own (migrations 0007, 0011), so a listing filtered by state walks the primary key (or the
// lane's index) newest first, a bounded window of ids per request: no page costs the engine
// more than a few milliseconds, however many jobs sit between matches. A page may then hold
// fewer jobs than asked for while `nextBeforeId` says there are more ids to look through.
import type { JobPage, JobState } from '../../../shared/model.js';
import type { Statement } from 'better-sqlite3';
import type { Db } from './db.js';
import { SUMMARY_COLUMNS, toSummary, type SummaryRow } from './job-rows.js';
import type { LaneCounts } from './lanes.js';
import { BLOCKED } from './blocked.js';

export interface JobFilter {
  lane?: string | undefined;
  state?: JobState | undefined;
  order?: 'newest' | 'oldest' | undefined;
  beforeId?: number | undefined;
  afterId?: number | undefined;
  /** Only jobs whose command holds this text (any case). */
  text?: string | undefined;
  /** Only jobs with this label: job_labels' key seeks them, whatever else the table holds. */
  label?: string | undefined;
  /** Dependents: `after` waiting for the jobs they run after, `blocked` never ran for one (blocked_by); `excluded`: the blocked left out. */
  dependents?: 'after' | 'blocked' | 'excluded' | undefined;
  limit: number;
}

/** Ids one request looks through when the filter has no index to seek with. */
export const SCAN_WINDOW = 20_000;

type Args = (string | number)[];

export class JobQueries {
  private readonly bounds;
  private readonly statements = new Map<string, Statement<Args, SummaryRow>>();
  /** The dependents' counts, by their SQL (a few kinds, with or without a lane and a state). */
  private readonly counts = new Map<string, Statement<Args, { n: number }>>();
  private countLabel: Statement<[string], { n: number }> | undefined;

  constructor(private readonly db: Db) {
    // Each bound on its own: SQLite answers a lone min() or max() from the key's end, while both in one query scan the table.
    this.bounds = db.prepare<[], { lo: number | null; hi: number | null }>('SELECT (SELECT min(id) FROM jobs) AS lo, (SELECT max(id) FROM jobs) AS hi');
  }

  /** In id order either way. `total` comes from the maintained counts, never a COUNT over the table. */
  page(filter: JobFilter, counts: ReadonlyMap<string, LaneCounts>): Omit<JobPage, 'seq'> {
    const newest = filter.order !== 'oldest';
    const { rows, windowEnd } = this.rows(filter, newest);
    const more = rows.length > filter.limit;
    const jobs = rows.slice(0, filter.limit).map(toSummary);
    const next = more ? (jobs.at(-1)?.id ?? null) : windowEnd;
    const total = filter.label ? this.labelled(filter.label) : filter.dependents ? this.dependents(filter) : totalFor(filter, counts);
    return { jobs, total, nextBeforeId: newest ? next : null, nextAfterId: newest ? null : next };
  }

  /** Jobs with a label, counted in its part of job_labels' key (a label marks a few jobs, not millions). */
  private labelled(label: string): number {
    this.countLabel ??= this.db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM job_labels WHERE label = ?');
    return this.countLabel.get(label)?.n ?? 0;
  }

  /** Dependents of a kind, counted over the index that holds them (they are few beside the jobs that ran). */
  private dependents(f: JobFilter): number {
    const d = DEPENDENTS[f.dependents!];
    const where = [...(f.lane ? ['lane = ?'] : []), ...d.where, ...(f.state ? ['state = ?'] : [])];
    const sql = `SELECT count(*) AS n FROM jobs INDEXED BY ${d.index} WHERE ${where.join(' AND ')}`;
    let count = this.counts.get(sql);
    if (!count) this.counts.set(sql, (count = this.db.prepare<Args, { n: number }>(sql)));
    return count.get(...(f.lane ? [f.lane] : []), ...(f.state ? [f.state] : []))?.n ?? 0;
  }

  /** The rows, and where an unfinished window stopped (the next page goes on from it). */
  private rows(f: JobFilter, newest: boolean): { rows: SummaryRow[]; windowEnd: number | null } {
    const cursor = newest ? (f.beforeId ?? Number.MAX_SAFE_INTEGER) : (f.afterId ?? 0);
    const past = newest ? 'id < ?' : 'id > ?';
    const lane = f.lane ? ['lane = ?'] : [];
    const laneArg: Args = f.lane ? [f.lane] : [];
    // The filter's state and text, where a query reads them from the rows themselves.
    const narrowed = (where: string[], args: Args): [string[], Args] => [
      [...where, ...(f.state ? ['state = ?'] : []), ...(f.text ? [TEXT_CONDITION] : [])],
      [...args, ...(f.state ? [f.state] : []), ...(f.text ? [likeText(f.text)] : [])],
    ];
    const seek = (from: string, where: string[], args: Args) => ({ rows: this.select(from, where, args, f.limit, newest), windowEnd: null });
    if (f.dependents) {
      const [where, args] = narrowed([...lane, ...DEPENDENTS[f.dependents].where, past], [...laneArg, cursor]);
      return seek(`jobs INDEXED BY ${DEPENDENTS[f.dependents].index}`, where, args);
    }
    if (f.label) {
      const [where, args] = narrowed(['id IN (SELECT job FROM job_labels WHERE label = ?)', ...lane, past], [f.label, ...laneArg, cursor]);
      return seek('jobs', where, args);
    }
    if (!f.text) {
      // States with an index that holds only them: seek, whatever the table holds.
      if (f.state === 'running') return seek('jobs INDEXED BY jobs_running', [...lane, "state = 'running'", past], [...laneArg, cursor]);
      if (f.state === 'failed' || f.state === 'cancelled') return seek('jobs INDEXED BY jobs_unhappy', [...lane, "state IN ('failed', 'cancelled')", 'state = ?', past], [...laneArg, f.state, cursor]);
      if (!f.state) return seek(f.lane ? 'jobs INDEXED BY jobs_lane' : 'jobs', [...lane, past], [...laneArg, cursor]);
    }
    // Succeeded, queued (its two indexes, runnable and waiting, are in priority and time order,
    // not id order), or a text search: most rows may not match, so look
    // through one window of ids per request.
    const { lo, hi } = this.bounds.get() ?? { lo: null, hi: null };
    if (lo === null || hi === null) return { rows: [], windowEnd: null };
    const [from, to] = newest ? [Math.max(lo, Math.min(cursor, hi + 1) - SCAN_WINDOW), Math.min(cursor, hi + 1)] : [Math.max(cursor, lo - 1), Math.min(hi, Math.max(cursor, lo - 1) + SCAN_WINDOW)];
    const [where, args] = narrowed([...lane, newest ? 'id >= ?' : 'id > ?', newest ? 'id < ?' : 'id <= ?'], [...laneArg, from, to]);
    const rows = this.select(f.lane ? 'jobs INDEXED BY jobs_lane' : 'jobs', where, args, f.limit, newest);
    const done = newest ? from <= lo : to >= hi;
    return { rows, windowEnd: rows.length > f.limit || done ? null : newest ? from : to };
  }

  private select(from: string, where: string[], args: Args, limit: number, newest: boolean): SummaryRow[] {
    const sql = `SELECT ${SUMMARY_COLUMNS} FROM ${from} WHERE ${where.join(' AND ')} ORDER BY id ${newest ? 'DESC' : 'ASC'} LIMIT ?`;
    let statement = this.statements.get(sql);
    if (!statement) this.statements.set(sql, (statement = this.db.prepare<Args, SummaryRow>(sql).raw()));
    return statement.all(...args, limit + 1);
  }
}

/** Each kind of dependent: the index that holds it, and its conditions (the index's own first). */
const DEPENDENTS = {
  after: { index: 'jobs_waiting', where: ["state = 'queued'", '(deps_left > 0 OR not_before IS NOT NULL)', 'deps_left > 0'] },
  blocked: { index: 'jobs_blocked', where: [BLOCKED] },
  excluded: { index: 'jobs_unhappy', where: ["state IN ('failed', 'cancelled')", 'blocked_by IS NULL'] },
} as const;

/** A command holding some text, any case, the text's own `%` and `_` taken as they are. */
const TEXT_CONDITION = "command LIKE ? ESCAPE '\\'";
const likeText = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function totalFor(f: JobFilter, counts: ReadonlyMap<string, LaneCounts>): number {
  const lanes = f.lane ? [counts.get(f.lane)] : [...counts.values()];
  let total = 0;
  for (const c of lanes) {
    if (!c) continue;
    total += f.state ? c[f.state] : c.queued + c.running + c.succeeded + c.failed + c.cancelled;
  }
  return total;
}
