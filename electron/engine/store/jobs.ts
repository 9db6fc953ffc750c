// The durable queue. Every state change is one guarded UPDATE, so a late answer from a worker
// that has already been given up on can never record a job twice. Reads on the hot path return
// summaries: the spec is parsed only when a job is claimed, the answer only when it is asked for.
import type { Job, JobSpec, JobState, JobSummary } from '../../../shared/model.js';
import { ERROR_MAX_CHARS } from '../../../shared/limits.js';
import { durably, type Db } from './db.js';
import { commandLine, SUMMARY_COLUMNS, toJob, toSummary, type AttemptRow, type FullRow, type SummaryRow } from './job-rows.js';

/** How a run ended, as the store records it (whoever ran it says so in this shape). */
export interface RunOutcome {
  state: Extract<JobState, 'succeeded' | 'failed' | 'cancelled'>;
  exitCode: number | null;
  error: string | null;
  /** What a persistent worker answered, already checked against the answer limits. */
  result?: unknown;
}

/** A job handed to a worker: what it runs, and how long it may take. */
export interface ClaimedJob extends JobSummary {
  spec: JobSpec;
  timeoutMs: number | null;
}

/** A job found running: enough to end its processes and give it back. */
export interface RunningRow {
  id: number;
  attempts: number;
  worker: string | null;
  interrupted: number;
}

export interface NewJob {
  lane: string;
  spec: JobSpec;
  maxAttempts: number;
  timeoutMs: number | null;
}

/** Why a run did not finish, and whether it costs the job an attempt and a wait. */
export interface Interruption {
  why: string;
  /** An orderly stop of the engine is not the job's fault: the attempt is given back. */
  refund?: boolean;
  /** When a job that still has attempts may run again (backoff); null: at once. */
  retryAt: number | null;
}

const clipError = (error: string | null) => (error === null || error.length <= ERROR_MAX_CHARS ? error : `${error.slice(0, ERROR_MAX_CHARS - 1)}…`);

export class JobStore {
  private readonly s;

  constructor(private readonly db: Db) {
    const returning = `RETURNING ${SUMMARY_COLUMNS}`;
    this.s = {
      insert: db.prepare('INSERT INTO jobs (lane, spec, command, max_attempts, timeout_ms, created_at) VALUES (?, ?, ?, ?, ?, ?)'),
      claim: db.prepare<[{ now: number; worker: string; lane: string }], SummaryRow & { spec: string; timeout_ms: number | null }>(
        `UPDATE jobs SET state = 'running', attempts = attempts + 1, started_at = @now, worker = @worker,
                finished_at = NULL, exit_code = NULL, error = NULL, run_after = NULL
         WHERE id = (SELECT id FROM jobs WHERE lane = @lane AND state = 'queued' AND (run_after IS NULL OR run_after <= @now) ORDER BY id LIMIT 1)
         ${returning}, spec, timeout_ms`,
      ),
      // A failed run goes back in the queue while it has attempts left, to wait for its retry.
      finish: db.prepare<[Record<string, unknown>], SummaryRow>(
        `UPDATE jobs SET
           state = CASE WHEN @state = 'failed' AND attempts < max_attempts THEN 'queued' ELSE @state END,
           finished_at = CASE WHEN @state = 'failed' AND attempts < max_attempts THEN NULL ELSE @now END,
           run_after = CASE WHEN @state = 'failed' AND attempts < max_attempts THEN @retryAt ELSE NULL END,
           exit_code = @exitCode, error = @error, result = @result, worker = NULL, interrupted = 0
         WHERE id = @id AND state = 'running' AND worker = @worker AND attempts = @attempt
         ${returning}`,
      ),
      // A job whose worker died, was given up on, or was stopped with the engine.
      requeue: db.prepare<[Record<string, unknown>], SummaryRow>(
        `UPDATE jobs SET
           attempts = CASE WHEN @refund THEN max(0, attempts - 1) ELSE attempts END,
           state = CASE WHEN @refund OR attempts < max_attempts THEN 'queued' ELSE 'failed' END,
           finished_at = CASE WHEN @refund OR attempts < max_attempts THEN NULL ELSE @now END,
           run_after = CASE WHEN @refund OR attempts >= max_attempts THEN NULL ELSE @retryAt END,
           error = @error, worker = NULL, interrupted = @interrupted
         WHERE id = @id AND state = 'running' AND worker IS @worker
         ${returning}`,
      ),
      holdBack: db.prepare<[number, string, number, number], SummaryRow>(
        `UPDATE jobs SET state = 'failed', finished_at = ?, error = ?, worker = NULL, interrupted = ?, run_after = NULL
         WHERE id = ? AND state = 'running' ${returning}`,
      ),
      attempt: db.prepare(
        `INSERT INTO job_attempts (job_id, attempt, started_at, finished_at, outcome, exit_code, error)
         SELECT id, attempts, started_at, ?, ?, ?, ? FROM jobs WHERE id = ?`,
      ),
      byWorker: db.prepare<[string], RunningRow>(`SELECT id, attempts, worker, interrupted FROM jobs WHERE state = 'running' AND worker = ?`),
      allRunning: db.prepare<[], RunningRow>(`SELECT id, attempts, worker, interrupted FROM jobs WHERE state = 'running'`),
      one: db.prepare<[number], FullRow>('SELECT * FROM jobs WHERE id = ?'),
      summary: db.prepare<[number], SummaryRow>(`SELECT ${SUMMARY_COLUMNS} FROM jobs WHERE id = ?`),
      history: db.prepare<[number], AttemptRow>('SELECT attempt, started_at, finished_at, outcome, exit_code, error FROM job_attempts WHERE job_id = ? ORDER BY id'),
      cancelQueued: db.prepare<[number, number], SummaryRow>(
        `UPDATE jobs SET state = 'cancelled', finished_at = ?, error = 'cancelled before it ran', run_after = NULL
         WHERE id = ? AND state = 'queued' ${returning}`,
      ),
      retry: db.prepare<[number], SummaryRow>(
        `UPDATE jobs SET state = 'queued', attempts = 0, started_at = NULL, finished_at = NULL,
                exit_code = NULL, error = NULL, result = NULL, run_after = NULL, interrupted = 0
         WHERE id = ? AND state IN ('failed', 'cancelled') ${returning}`,
      ),
      oldestQueued: db.prepare<[string], { created_at: number }>(`SELECT created_at FROM jobs WHERE lane = ? AND state = 'queued' ORDER BY id LIMIT 1`),
      delayed: db.prepare<[number], { lane: string; n: number; next: number }>(
        `SELECT lane, count(*) AS n, min(run_after) AS next FROM jobs WHERE state = 'queued' AND run_after > ? GROUP BY lane`,
      ),
      undescribed: db.prepare<[], { id: number; spec: string }>('SELECT id, spec FROM jobs WHERE command IS NULL LIMIT 1000'),
      describe: db.prepare('UPDATE jobs SET command = ? WHERE id = ?'),
    };
    this.describeOlderRows();
  }

  /** Queued work is synced to disk before the caller hears its id. */
  enqueue(jobs: NewJob[], now: number): number[] {
    return durably(this.db, () =>
      jobs.map((j) => Number(this.s.insert.run(j.lane, JSON.stringify(j.spec), commandLine(j.spec), j.maxAttempts, j.timeoutMs, now).lastInsertRowid)),
    );
  }

  /** Records the outcome of one job and claims the lane's next, in one transaction. */
  finishAndClaim(
    done: { jobId: number; worker: string; attempt: number; outcome: RunOutcome; retryAt: number | null } | null,
    next: { lane: string; worker: string } | null,
    now: number,
  ): { finished: JobSummary | null; claimed: ClaimedJob | null } {
    return this.db
      .transaction(() => {
        const finished = done ? this.finish(done, now) : null;
        const raw = next ? this.s.claim.get({ now, worker: next.worker, lane: next.lane }) : undefined;
        return { finished, claimed: raw ? { ...toSummary(raw), spec: JSON.parse(raw.spec) as JobSpec, timeoutMs: raw.timeout_ms } : null };
      })
      .immediate();
  }

  private finish(d: { jobId: number; worker: string; attempt: number; outcome: RunOutcome; retryAt: number | null }, now: number): JobSummary | null {
    const o = d.outcome;
    const error = clipError(o.error);
    const row = this.s.finish.get({
      state: o.state,
      now,
      retryAt: d.retryAt,
      exitCode: o.exitCode,
      error,
      result: o.result === undefined ? null : JSON.stringify(o.result),
      id: d.jobId,
      worker: d.worker,
      attempt: d.attempt,
    });
    if (row && o.state !== 'succeeded') this.s.attempt.run(now, o.state, o.exitCode, error, d.jobId);
    return row ? toSummary(row) : null;
  }

  runningFor(worker: string): RunningRow[] {
    return this.s.byWorker.all(worker);
  }

  allRunning(): RunningRow[] {
    return this.s.allRunning.all();
  }

  /** Gives a running job back to the queue (or fails it when out of attempts), keeping why. */
  requeue(job: RunningRow, how: Interruption, now: number, interrupted = 0): JobSummary | null {
    const row = durably(this.db, () => {
      this.s.attempt.run(now, 'interrupted', null, how.why, job.id);
      return this.s.requeue.get({ refund: how.refund ? 1 : 0, now, retryAt: how.retryAt, error: clipError(how.why), interrupted, id: job.id, worker: job.worker });
    });
    return row ? toSummary(row) : null;
  }

  /** A job the engine died under too often: failed, with why, until a person retries it. */
  holdBack(job: RunningRow, why: string, now: number): JobSummary | null {
    const row = durably(this.db, () => {
      this.s.attempt.run(now, 'interrupted', null, why, job.id);
      return this.s.holdBack.get(now, why, job.interrupted + 1, job.id);
    });
    return row ? toSummary(row) : null;
  }

  get(id: number): Job | undefined {
    const row = this.s.one.get(id);
    return row ? toJob(row, this.s.history.all(id)) : undefined;
  }

  summary(id: number): JobSummary | undefined {
    const row = this.s.summary.get(id);
    return row ? toSummary(row) : undefined;
  }

  cancelQueued(id: number, now: number): JobSummary | null {
    const row = durably(this.db, () => this.s.cancelQueued.get(now, id));
    return row ? toSummary(row) : null;
  }

  retry(id: number): JobSummary | null {
    const row = durably(this.db, () => this.s.retry.get(id));
    return row ? toSummary(row) : null;
  }

  /** When the lane's oldest queued job was queued; undefined when none waits. */
  oldestQueuedAt(lane: string): number | undefined {
    return this.s.oldestQueued.get(lane)?.created_at;
  }

  /** Per lane, the queued retries still waiting for their moment, and the soonest of those moments. */
  delayed(now: number): Map<string, { n: number; next: number }> {
    return new Map(this.s.delayed.all(now).map((r) => [r.lane, { n: r.n, next: r.next }]));
  }

  /** Rows written before summaries were stored get one, a thousand at a time, once. */
  private describeOlderRows(): void {
    for (let rows = this.s.undescribed.all(); rows.length > 0; rows = this.s.undescribed.all()) {
      this.db.transaction(() => {
        for (const r of rows) this.s.describe.run(commandLine(JSON.parse(r.spec) as JobSpec), r.id);
      })();
    }
  }
}
