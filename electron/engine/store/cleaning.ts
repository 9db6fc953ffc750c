// Removing finished jobs from the store, a chunk per transaction, and the compact record each
// leaves behind (cleaned_jobs, migration 0012). Only succeeded, failed and cancelled jobs are ever
// touched: a queued job (a retry waiting out its backoff included), a running one, or one in a
// worker's hand (still queued) is never selected, since every statement repeats the finished
// states. No finished job is kept for another's sake: a job that runs after a cleaned one reads
// how it ended from its record (job-waits.ts), and the record is kept while such a link names it.
// In the same transaction, a dependent still queued of a job removed without succeeding fails,
// naming it (every dependent ends), and the removed ids are written to logs_to_remove: their
// files go after the commit, and a crash in between leaves them for the next pass to finish
// (retention/retention.ts), never for ever.
//
// Jobs are found by walking the primary key in windows of ids from the oldest, so one chunk reads
// a bounded number of rows whatever the table holds, and the walk ends at the first job queued
// after the cut-off (ids grow with queue time, and a job finishes after it was queued).
import type { JobState, JobSummary } from '../../../shared/model.js';
import { CLEANED_KEEP } from '../../../shared/limits.js';
import { SHARED_ID_MIN } from './job-ids.js';
import type { Db } from './db.js';
import type { JobCounts, Move } from './counts.js';
import type { JobWaits } from './job-waits.js';

export type FinishedState = Extract<JobState, 'succeeded' | 'failed' | 'cancelled'>;
export const FINISHED: readonly FinishedState[] = ['succeeded', 'failed', 'cancelled'];

/** Which finished jobs go: those finished before the cut-off of their state, in one lane or all. */
export interface CleanSelect {
  lane?: string | undefined;
  /** Per state, remove jobs finished before this moment (ms); a state left out is kept. */
  before: Partial<Record<FinishedState, number>>;
}

/** What is left of a removed job. */
export interface CleanedRecord {
  id: number;
  lane: string;
  state: FinishedState;
  exitCode: number | null;
  finishedAt: number | null;
  /** null: a shared job this engine saw finish, whose record BullMQ still holds (or dropped). */
  cleanedAt: number | null;
}

/** Ids one chunk looks through, and the most it removes: a few milliseconds of the engine's time. */
export const CLEAN_WINDOW = 500;

interface Row {
  id: number;
  lane: string;
  state: FinishedState;
  exit_code: number | null;
  finished_at: number | null;
  created_at: number;
}

export class JobCleaner {
  private readonly s;

  constructor(
    private readonly db: Db,
    private readonly counts: JobCounts,
    /** Settles the dependents of jobs that went (the store's own rule, job-waits.ts). */
    private readonly waits: Pick<JobWaits, 'settle'> | null = null,
  ) {
    this.s = {
      bounds: db.prepare<[], { lo: number | null; hi: number | null }>(`SELECT (SELECT min(id) FROM jobs) AS lo, (SELECT max(id) FROM jobs WHERE id < ${SHARED_ID_MIN}) AS hi`),
      window: db.prepare<[{ from: number; to: number }], Row>(
        "SELECT id, lane, state, exit_code, finished_at, created_at FROM jobs WHERE id >= @from AND id < @to AND state IN ('succeeded', 'failed', 'cancelled') ORDER BY id",
      ),
      firstCreated: db.prepare<[number], { id: number; created_at: number }>('SELECT id, created_at FROM jobs WHERE id >= ? ORDER BY id LIMIT 1'),
      remove: db.prepare<[string], { id: number }>("DELETE FROM jobs WHERE id IN (SELECT value FROM json_each(?)) AND state IN ('succeeded', 'failed', 'cancelled') RETURNING id"),
      keep: db.prepare('INSERT OR REPLACE INTO cleaned_jobs (id, lane, state, exit_code, finished_at, cleaned_at) VALUES (?, ?, ?, ?, ?, ?)'),
      find: db.prepare<[number], { id: number; lane: string; state: FinishedState; exit_code: number | null; finished_at: number | null; cleaned_at: number | null }>('SELECT * FROM cleaned_jobs WHERE id = ?'),
      finishedAmong: db.prepare<[string], { id: number }>("SELECT id FROM jobs WHERE id IN (SELECT value FROM json_each(?)) AND state IN ('succeeded', 'failed', 'cancelled')"),
      trimmed: db.prepare<[string]>("UPDATE jobs SET logs_trimmed = 1 WHERE id IN (SELECT value FROM json_each(?)) AND state IN ('succeeded', 'failed', 'cancelled')"),
      kept: db.prepare<[string], { id: number }>('SELECT id FROM jobs WHERE id IN (SELECT value FROM json_each(?))'),
      logsToRemove: db.prepare<[string]>('INSERT OR IGNORE INTO logs_to_remove (id) SELECT value FROM json_each(?)'),
      logsPending: db.prepare<[], { id: number }>(`SELECT id FROM logs_to_remove ORDER BY id LIMIT ${CLEAN_WINDOW}`),
      logsGone: db.prepare<[string]>('DELETE FROM logs_to_remove WHERE id IN (SELECT value FROM json_each(?))'),
      // The newest CLEANED_KEEP of each id range (local, shared) stay; older ones go, but for one a
      // kept job still runs after (its link needs to know how it ended).
      boundLocal: db.prepare(
        `DELETE FROM cleaned_jobs WHERE id <= (SELECT id FROM cleaned_jobs WHERE id < ${SHARED_ID_MIN} ORDER BY id DESC LIMIT 1 OFFSET ${CLEANED_KEEP})
         AND NOT EXISTS (SELECT 1 FROM job_deps d WHERE d.after = cleaned_jobs.id)`,
      ),
      boundShared: db.prepare(
        `DELETE FROM cleaned_jobs WHERE id >= ${SHARED_ID_MIN} AND id <= (SELECT id FROM cleaned_jobs WHERE id >= ${SHARED_ID_MIN} ORDER BY id DESC LIMIT 1 OFFSET ${CLEANED_KEEP})`,
      ),
    };
  }

  /**
   * One chunk: the matching finished jobs among ids [from, from + CLEAN_WINDOW), removed with
   * their attempts and each kept as a compact record. `next`: where the walk goes on, or null
   * when nothing after it can match.
   */
  chunk(select: CleanSelect, from: number, now: number): { removed: CleanedRecord[]; failed: JobSummary[]; next: number | null } {
    const { lo, hi } = this.s.bounds.get() ?? { lo: null, hi: null };
    if (lo === null || hi === null || from > hi) return { removed: [], failed: [], next: null };
    // Nothing queued after the latest cut-off can have finished before it; gaps left by earlier
    // cleaning are stepped over, not walked.
    const latest = Math.max(...Object.values(select.before).map((t) => t ?? -Infinity));
    const first = this.s.firstCreated.get(Math.max(from, lo));
    if (!first || first.created_at >= latest) return { removed: [], failed: [], next: null };
    const start = first.id;
    const end = start + CLEAN_WINDOW;
    const moves: Move[] = [];
    const done = this.db
      .transaction(() => {
        const rows = this.s.window.all({ from: start, to: end }).filter((r) => (select.lane === undefined || r.lane === select.lane) && r.finished_at !== null && r.finished_at < (select.before[r.state] ?? -Infinity));
        if (rows.length === 0) return { removed: [], failed: [] };
        const ids = JSON.stringify(rows.map((r) => r.id));
        const gone = new Set(this.s.remove.all(ids).map((r) => r.id));
        const kept: CleanedRecord[] = [];
        for (const r of rows) {
          if (!gone.has(r.id)) continue;
          this.s.keep.run(r.id, r.lane, r.state, r.exit_code, r.finished_at, now);
          moves.push({ lane: r.lane, from: r.state, to: null });
          kept.push({ id: r.id, lane: r.lane, state: r.state, exitCode: r.exit_code, finishedAt: r.finished_at, cleanedAt: now });
        }
        this.s.logsToRemove.run(JSON.stringify(kept.map((k) => k.id)));
        const failed = this.waits ? this.waits.settle(kept.filter((k) => k.state !== 'succeeded'), now, moves).failed : [];
        return { removed: kept, failed };
      })
      .immediate();
    this.counts.apply(moves);
    return { ...done, next: end > hi ? null : end };
  }

  /** Jobs removed whose log files may still be there (a pass cut short), oldest first, a chunk at a time. */
  logsPending(): number[] {
    return this.s.logsPending.all().map((r) => r.id);
  }

  /** These removed jobs' files are gone. */
  logsRemoved(ids: readonly number[]): void {
    this.s.logsGone.run(JSON.stringify(ids));
  }

  /** Which of these ids are jobs the store keeps (a log file of any other is left from a job that went). */
  keptAmong(ids: readonly number[]): Set<number> {
    return new Set(this.s.kept.all(JSON.stringify(ids)).map((r) => r.id));
  }

  /**
   * Shared jobs this engine saw finish, in one transaction: their records outlive BullMQ's. A job
   * retried since is found in its queue again, so what is kept here is read only once it is not.
   */
  remember(jobs: readonly { id: number; lane: string; state: JobState; exitCode: number | null; finishedAt: number | null }[]): void {
    this.db.transaction(() => {
      for (const j of jobs) if ((FINISHED as readonly JobState[]).includes(j.state)) this.s.keep.run(j.id, j.lane, j.state, j.exitCode, j.finishedAt, null);
    })();
  }

  /** When the oldest job the store still holds was queued: nothing finished before it, so nothing is past its keep sooner. Null: no job. */
  oldestQueuedAt(): number | null {
    return this.s.firstCreated.get(0)?.created_at ?? null;
  }

  find(id: number): CleanedRecord | undefined {
    const r = this.s.find.get(id);
    return r ? { id: r.id, lane: r.lane, state: r.state, exitCode: r.exit_code, finishedAt: r.finished_at, cleanedAt: r.cleaned_at } : undefined;
  }

  /** Which of these jobs are finished (their logs may go). */
  finishedAmong(ids: readonly number[]): Set<number> {
    return new Set(this.s.finishedAmong.all(JSON.stringify(ids)).map((r) => r.id));
  }

  /** These finished jobs' logs went to keep all logs within their bound: their records say so. */
  markLogsTrimmed(ids: readonly number[]): void {
    this.s.trimmed.run(JSON.stringify(ids));
  }

  /** Keeps the compact records within CLEANED_KEEP per id range; how many went. */
  bound(): number {
    return this.s.boundLocal.run().changes + this.s.boundShared.run().changes;
  }
}
