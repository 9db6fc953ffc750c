// What a queued job waits for besides a worker: other jobs (`--after`) and its time (`--delay`,
// `--at`), and what it is filed under (labels). The SQL and the rules that go with it:
// - a job is runnable once every job it runs after has succeeded and its time has come; until
//   then it is outside the queue's head (jobs_ready, migration 0013), so however many wait, a
//   claim reads only what it takes. A job it runs after that succeeded and was cleaned counts as
//   succeeded: its compact record says so (links outlive a cleaned job, migration 0014);
// - every dependent ends: when a job ends, its dependents are settled in the same transaction —
//   on success their count of jobs left is counted afresh; on failure or cancellation each fails
//   too, keeping the job's id (blocked_by) with words for people ("job 41 failed"), and so on
//   down the chain. A dependent is never queued again while a job it runs after can no longer
//   succeed (failed, cancelled, cleaned without succeeding): adding, editing, retrying or
//   restarting it in place is refused in one set of words (`cannotRunAfter`), and one that a race
//   let through fails at once. Cleaning a job that did not succeed fails any dependent still
//   queued the same way (store/cleaning.ts);
// - a scheduled job's time is let go (`not_before` back to NULL) by `releaseDue`, which the
//   engine runs before each sizing pass; a time that passed while the engine was down is let go
//   at the first pass after it starts.
// Per-lane counts of waiting jobs are read once and kept until a write could change them.
import type { JobLink, JobState, JobSummary } from '../../../shared/model.js';
import type { Db } from './db.js';
import type { Move } from './counts.js';
import { SUMMARY_COLUMNS, toSummary, type SummaryRow } from './job-rows.js';
import { dependencyEnded } from '../../../shared/dependencies.js';

/** A lane's queued jobs that cannot run yet for a reason other than a retry's backoff. */
export interface LaneWaits {
  /** Waiting for other jobs to succeed. */
  afterJobs: number;
  /** Waiting only for their time. */
  scheduled: number;
  /** When the first of those is due; null: none. */
  scheduledNext: number | null;
  /** The soonest time any of the lane's waiting jobs is let go (a job that also waits for others included). */
  next: number | null;
}

/** A job that another runs after and that can no longer succeed: how it ended, if anyone knows. */
export interface LostDependency {
  id: number;
  /** null: neither the job nor a record of it is kept (its lane was removed). */
  state: 'failed' | 'cancelled' | null;
  /** It was cleaned: it cannot be retried any more. */
  cleaned: boolean;
}

/** The words a dependent fails with when a job it runs after ends badly (shared: the window reads them back). */
export { dependencyEnded };

/** Why a job cannot run after `lost`: the one answer of `add --after`, `edit --after`, `retry` and `restart --in-place`. */
export function cannotRunAfter(lost: LostDependency): string {
  if (lost.state === null) return `there is no job ${lost.id} to run after`;
  const was = lost.state === 'cancelled' ? 'was cancelled' : 'failed';
  if (lost.cleaned) return `job ${lost.id} ${was} and has been cleaned, so a job after it would never run`;
  return `job ${lost.id} ${was}, so a job after it would never run; retry it first (lanes retry ${lost.id})`;
}

/** How one job another runs after stands: in the store, cleaned (its record), or neither. */
interface AfterRow {
  id: number;
  state: JobState | null;
  cleaned: 'succeeded' | 'failed' | 'cancelled' | null;
}

/** Whether this dependency can no longer succeed; `retrying`: jobs being queued again with it (they may yet). */
function lostOf(r: AfterRow, retrying: ReadonlySet<number>): LostDependency | null {
  if (r.state === 'failed' || r.state === 'cancelled') return retrying.has(r.id) ? null : { id: r.id, state: r.state, cleaned: false };
  if (r.state !== null) return null;
  if (r.cleaned === 'succeeded') return null;
  return { id: r.id, state: r.cleaned, cleaned: r.cleaned !== null };
}

/**
 * The count a dependent keeps of the jobs it runs after that have not succeeded: neither kept as
 * succeeded nor cleaned as succeeded.
 */
export const DEPS_LEFT = `(SELECT count(*) FROM job_deps d WHERE d.job = jobs.id
  AND NOT EXISTS (SELECT 1 FROM jobs a WHERE a.id = d.after AND a.state = 'succeeded')
  AND NOT EXISTS (SELECT 1 FROM cleaned_jobs c WHERE c.id = d.after AND c.state = 'succeeded'))`;
/** Queued jobs waiting for other jobs or for their time, as their index (migration 0013) holds them. */
export const WAITING = 'jobs INDEXED BY jobs_waiting WHERE state = \'queued\' AND (deps_left > 0 OR not_before IS NOT NULL)';

export class JobWaits {
  private readonly s;
  private counts: Map<string, LaneWaits> | null = null;
  /** Whether any job runs after another: if none does, a finished job has nothing to settle. */
  private anyDeps: boolean;

  constructor(db: Db) {
    const raw = <P extends unknown[], R extends unknown[]>(sql: string) => db.prepare<P, R>(sql).raw();
    this.s = {
      any: db.prepare<[], { one: number }>('SELECT 1 AS one FROM job_deps LIMIT 1'),
      // Jobs to run after, as they stand: in the store, else as cleaned, else unknown.
      afterIds: db.prepare<[string], AfterRow>(
        'SELECT e.value AS id, a.state, c.state AS cleaned FROM json_each(?) e LEFT JOIN jobs a ON a.id = e.value LEFT JOIN cleaned_jobs c ON c.id = e.value',
      ),
      afterLinks: db.prepare<[string], AfterRow & { job: number }>(
        `SELECT d.job, d.after AS id, a.state, c.state AS cleaned FROM job_deps d LEFT JOIN jobs a ON a.id = d.after LEFT JOIN cleaned_jobs c ON c.id = d.after
         WHERE d.job IN (SELECT value FROM json_each(?)) ORDER BY d.job, d.after`,
      ),
      link: db.prepare('INSERT OR IGNORE INTO job_deps (after, job) SELECT value, ? FROM json_each(?)'),
      unlink: db.prepare('DELETE FROM job_deps WHERE job = ?'),
      label: db.prepare('INSERT OR IGNORE INTO job_labels (label, job) SELECT value, ? FROM json_each(?)'),
      unlabel: db.prepare('DELETE FROM job_labels WHERE job = ?'),
      recount: raw<[number], SummaryRow>(`UPDATE jobs SET deps_left = ${DEPS_LEFT} WHERE id = ? AND state = 'queued' RETURNING ${SUMMARY_COLUMNS}`),
      // Runnable from now once none is left (and its time, if it has one, has come): its wait counts from here.
      released: db.prepare<[number, number], { lane: string; deps_left: number }>(
        `UPDATE jobs SET deps_left = ${DEPS_LEFT}, ready_at = CASE WHEN ${DEPS_LEFT} = 0 AND not_before IS NULL THEN ? ELSE ready_at END
         WHERE id IN (SELECT job FROM job_deps WHERE after = ?) AND state = 'queued' RETURNING lane, deps_left`,
      ),
      // Failed for the job they run after, which is kept as the fact (blocked_by, migration 0019); the words are for people.
      failDependents: raw<[{ now: number; error: string; after: number }], SummaryRow>(
        `UPDATE jobs SET state = 'failed', finished_at = @now, error = @error, blocked_by = @after, run_after = NULL, not_before = NULL, worker = NULL
         WHERE id IN (SELECT job FROM job_deps WHERE after = @after) AND state = 'queued' RETURNING ${SUMMARY_COLUMNS}`,
      ),
      failOne: raw<[{ now: number; error: string; after: number; id: number }], SummaryRow>(
        `UPDATE jobs SET state = 'failed', finished_at = @now, error = @error, blocked_by = @after, not_before = NULL WHERE id = @id AND state = 'queued' RETURNING ${SUMMARY_COLUMNS}`,
      ),
      counts: db.prepare<[], { lane: string; after_jobs: number; scheduled: number; scheduled_next: number | null; next: number | null }>(
        `SELECT lane, sum(deps_left > 0) AS after_jobs, sum(deps_left = 0) AS scheduled,
                min(CASE WHEN deps_left = 0 THEN not_before END) AS scheduled_next, min(not_before) AS next
         FROM ${WAITING} GROUP BY lane`,
      ),
      // Its time came: runnable since that moment, if it waits for no other job.
      release: db.prepare<[number], { lane: string; deps_left: number }>(
        `UPDATE jobs SET not_before = NULL, ready_at = CASE WHEN deps_left = 0 THEN not_before ELSE ready_at END
         WHERE id IN (SELECT id FROM ${WAITING} AND not_before <= ?) RETURNING lane, deps_left`,
      ),
      labelled: db.prepare<[{ label: string; lane: string | null; states: string }], { id: number }>(
        `SELECT j.id FROM job_labels l JOIN jobs j ON j.id = l.job
         WHERE l.label = @label AND (@lane IS NULL OR j.lane = @lane) AND j.state IN (SELECT value FROM json_each(@states)) ORDER BY j.id`,
      ),
      // A job it ran after that was cleaned is named as its record has it (its command is not kept).
      upstream: db.prepare<[number], { id: number; state: JobState | null; command: string | null; cleaned: JobState | null; cleaned_at: number | null }>(
        `SELECT d.after AS id, j.state, j.command, c.state AS cleaned, c.cleaned_at FROM job_deps d LEFT JOIN jobs j ON j.id = d.after LEFT JOIN cleaned_jobs c ON c.id = d.after
         WHERE d.job = ? ORDER BY d.after`,
      ),
      downstream: db.prepare<[number], { id: number; state: JobState; command: string | null }>('SELECT j.id, j.state, j.command FROM job_deps d JOIN jobs j ON j.id = d.job WHERE d.after = ? ORDER BY j.id'),
      restartedAs: db.prepare<[number], { id: number }>('SELECT id FROM jobs INDEXED BY jobs_restarts WHERE restart_of = ? ORDER BY id'),
      // Would `job` come back round to itself through these? Walks up from them, through what they run after.
      cycle: db.prepare<[string, number], { one: number }>(
        `WITH RECURSIVE up(id) AS (SELECT value FROM json_each(?) UNION SELECT d.after FROM job_deps d JOIN up ON d.job = up.id)
         SELECT 1 AS one FROM up WHERE id = ? LIMIT 1`,
      ),
    };
    this.anyDeps = this.s.any.get() !== undefined;
  }

  /** The first of these jobs (to run after) that can no longer succeed; null when each still may, or has. */
  lostAmong(after: readonly number[]): LostDependency | null {
    for (const r of this.s.afterIds.all(JSON.stringify(after))) {
      const lost = lostOf(r, new Set());
      if (lost) return lost;
    }
    return null;
  }

  /**
   * Of these jobs, each that runs after a job that can no longer succeed, with the first such.
   * `retrying`: jobs queued again with them, which may yet succeed — unless they are themselves
   * held back by such a job, and so on up the chain.
   */
  lostDependencies(jobs: readonly number[], retrying: ReadonlySet<number> = new Set()): Map<number, LostDependency> {
    const lost = new Map<number, LostDependency>();
    if (!this.anyDeps || jobs.length === 0) return lost;
    const rows = this.s.afterLinks.all(JSON.stringify(jobs));
    const hopeful = new Set(retrying);
    for (let changed = true; changed; ) {
      changed = false;
      for (const r of rows) {
        if (lost.has(r.job)) continue;
        const l = lostOf(r, hopeful);
        if (!l) continue;
        lost.set(r.job, l);
        changed = hopeful.delete(r.job) || changed;
      }
    }
    return lost;
  }

  /** Whether making `job` run after `after` would make it wait for itself. */
  wouldCycle(job: number, after: readonly number[]): boolean {
    return after.includes(job) || this.s.cycle.get(JSON.stringify(after), job) !== undefined;
  }

  /**
   * A new or edited job's links: what it runs after (replacing any it had) and its labels. One that
   * runs after a job already failed or cancelled fails at once, as it would have when that ended.
   */
  link(job: JobSummary, after: readonly number[] | undefined, labels: readonly string[] | undefined, now: number, moves: Move[]): JobSummary {
    if (labels !== undefined) {
      this.s.unlabel.run(job.id);
      if (labels.length > 0) this.s.label.run(job.id, JSON.stringify(labels));
    }
    if (after === undefined) return job;
    this.s.unlink.run(job.id);
    if (after.length > 0) {
      this.s.link.run(job.id, JSON.stringify(after));
      this.anyDeps = true;
    }
    this.counts = null;
    // Checked when it was asked for; what changed since (a job it runs after failed, or went) ends it here.
    const lost = this.lostAmong(after);
    if (lost) {
      const failed = this.s.failOne.get({ now, error: dependencyEnded(lost.id, lost.state), after: lost.id, id: job.id });
      if (failed) {
        moves.push({ lane: job.lane, from: 'queued', to: 'failed' });
        return toSummary(failed);
      }
    }
    const counted = this.s.recount.get(job.id);
    return counted ? toSummary(counted) : job;
  }

  /** Something about waiting jobs changed (an edit, a cancel, a retry): count afresh when next asked. */
  changed(): void {
    this.counts = null;
  }

  /**
   * Jobs that ended in this transaction, and what follows from it for the jobs that run after
   * them. Returns the dependents failed along the way and the lanes where some became runnable.
   */
  settle(ended: readonly Pick<JobSummary, 'id' | 'state'>[], now: number, moves: Move[]): { failed: JobSummary[]; runnable: Set<string> } {
    const failed: JobSummary[] = [];
    const runnable = new Set<string>();
    if (!this.anyDeps) return { failed, runnable };
    const todo: Pick<JobSummary, 'id' | 'state'>[] = [...ended];
    for (let job = todo.shift(); job !== undefined; job = todo.shift()) {
      if (job.state === 'succeeded') {
        const rows = this.s.released.all(now, job.id);
        if (rows.length > 0) this.counts = null;
        for (const r of rows) if (r.deps_left === 0) runnable.add(r.lane);
      } else if (job.state === 'failed' || job.state === 'cancelled') {
        for (const row of this.s.failDependents.all({ now, error: dependencyEnded(job.id, job.state), after: job.id })) {
          const dependent = toSummary(row);
          moves.push({ lane: dependent.lane, from: 'queued', to: 'failed' });
          failed.push(dependent);
          todo.push(dependent);
          this.counts = null;
        }
      }
    }
    return { failed, runnable };
  }

  /** Lets go of every scheduled time that has come; the lanes where a job became runnable. */
  releaseDue(now: number): Set<string> {
    const lanes = new Set<string>();
    const due = this.soonest();
    if (due === null || due > now) return lanes;
    for (const r of this.s.release.all(now)) if (r.deps_left === 0) lanes.add(r.lane);
    this.counts = null;
    return lanes;
  }

  /** Per lane, what waits for other jobs or for its time. */
  waits(): ReadonlyMap<string, LaneWaits> {
    if (this.counts === null) {
      this.counts = new Map(this.s.counts.all().map((r) => [r.lane, { afterJobs: r.after_jobs, scheduled: r.scheduled, scheduledNext: r.scheduled_next, next: r.next }]));
    }
    return this.counts;
  }

  /** The ids of the jobs with a label, in a lane or all, in these states (a bulk cancel or retry by label). */
  labelled(label: string, lane: string | undefined, states: readonly JobState[]): number[] {
    return this.s.labelled.all({ label, lane: lane ?? null, states: JSON.stringify(states) }).map((r) => r.id);
  }

  /** The links a job's detail shows. */
  linksOf(id: number): { after: JobLink[]; dependents: JobLink[]; restartedAs: number[] } {
    const link = (r: { id: number; state: JobState; command: string | null }): JobLink => ({ id: r.id, state: r.state, command: r.command ?? '' });
    // One whose record is gone too (its lane was removed) is no longer known: left out.
    const after = this.s.upstream.all(id).flatMap((r): JobLink[] => {
      if (r.state !== null) return [link({ id: r.id, state: r.state, command: r.command })];
      return r.cleaned !== null ? [{ id: r.id, state: r.cleaned, cleanedAt: r.cleaned_at }] : [];
    });
    return { after, dependents: this.s.downstream.all(id).map(link), restartedAs: this.s.restartedAs.all(id).map((r) => r.id) };
  }

  private soonest(): number | null {
    let soonest: number | null = null;
    for (const w of this.waits().values()) if (w.next !== null && (soonest === null || w.next < soonest)) soonest = w.next;
    return soonest;
  }
}
