// The durable queue. Every state change is one guarded UPDATE, so a late answer from a worker
// that has already been given up on can never record a job twice.
import type { Job, JobSpec, JobState } from '../../../shared/model.js';
import { durably, type Db } from './db.js';

/** How a run ended, as the store records it (whoever ran it says so in this shape). */
export interface RunOutcome {
  state: Extract<JobState, 'succeeded' | 'failed' | 'cancelled'>;
  exitCode: number | null;
  error: string | null;
  /** What a persistent worker answered. */
  result?: unknown;
}

interface RawJob {
  id: number;
  lane: string;
  spec: string;
  state: JobState;
  attempts: number;
  max_attempts: number;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
  exit_code: number | null;
  error: string | null;
  result: string | null;
  worker: string | null;
  pgid: number | null;
}

export interface RunningJob extends Job {
  worker: string | null;
  pgid: number | null;
}

export const toJob = (r: RawJob): RunningJob => ({
  id: r.id,
  lane: r.lane,
  spec: JSON.parse(r.spec) as JobSpec,
  state: r.state,
  attempts: r.attempts,
  maxAttempts: r.max_attempts,
  createdAt: r.created_at,
  startedAt: r.started_at,
  finishedAt: r.finished_at,
  exitCode: r.exit_code,
  error: r.error,
  result: r.result === null ? null : (JSON.parse(r.result) as unknown),
  worker: r.worker,
  pgid: r.pgid,
});

interface FinishParams {
  state: JobState;
  now: number;
  exitCode: number | null;
  error: string | null;
  result: string | null;
  id: number;
  worker: string;
  attempt: number;
}

/** A job as clients see it: which worker holds it and its process group stay inside the engine. */
export function publicJob(job: RunningJob): Job {
  const { worker: _w, pgid: _p, ...rest } = job;
  return rest;
}

export interface NewJob {
  lane: string;
  spec: JobSpec;
  maxAttempts: number;
}

export class JobStore {
  private readonly insert;
  private readonly claim;
  private readonly finishStmt;
  private readonly requeueStmt;
  private readonly refundStmt;
  private readonly byWorker;
  private readonly allRunning;
  private readonly pgidStmt;
  private readonly one;
  private readonly cancelQueuedStmt;
  private readonly retryStmt;
  private readonly oldestQueued;

  constructor(private readonly db: Db) {
    this.insert = db.prepare('INSERT INTO jobs (lane, spec, max_attempts, created_at) VALUES (?, ?, ?, ?)');
    this.claim = db.prepare<[number, string, string], RawJob>(
      `UPDATE jobs SET state = 'running', attempts = attempts + 1, started_at = ?, worker = ?,
              finished_at = NULL, exit_code = NULL, error = NULL, pgid = NULL
       WHERE id = (SELECT id FROM jobs WHERE lane = ? AND state = 'queued' ORDER BY id LIMIT 1)
       RETURNING *`,
    );
    // A failed run goes straight back in the queue while it has attempts left.
    this.finishStmt = db.prepare<[FinishParams], RawJob>(
      `UPDATE jobs SET
         state = CASE WHEN @state = 'failed' AND attempts < max_attempts THEN 'queued' ELSE @state END,
         finished_at = CASE WHEN @state = 'failed' AND attempts < max_attempts THEN NULL ELSE @now END,
         exit_code = @exitCode, error = @error, result = @result, worker = NULL, pgid = NULL
       WHERE id = @id AND state = 'running' AND worker = @worker AND attempts = @attempt
       RETURNING *`,
    );
    // A job whose worker died or was given up on: back in the queue while attempts remain.
    this.requeueStmt = db.prepare<[number, string, number, string | null], RawJob>(
      `UPDATE jobs SET
         state = CASE WHEN attempts < max_attempts THEN 'queued' ELSE 'failed' END,
         finished_at = CASE WHEN attempts < max_attempts THEN NULL ELSE ? END,
         error = ?, worker = NULL, pgid = NULL
       WHERE id = ? AND state = 'running' AND worker IS ?
       RETURNING *`,
    );
    this.refundStmt = db.prepare(`UPDATE jobs SET attempts = max(0, attempts - 1) WHERE id = ? AND state = 'running' AND worker IS ?`);
    this.byWorker = db.prepare<[string], RawJob>(`SELECT * FROM jobs WHERE state = 'running' AND worker = ?`);
    this.allRunning = db.prepare<[], RawJob>(`SELECT * FROM jobs WHERE state = 'running'`);
    this.pgidStmt = db.prepare(`UPDATE jobs SET pgid = ? WHERE id = ? AND state = 'running'`);
    this.one = db.prepare<[number], RawJob>('SELECT * FROM jobs WHERE id = ?');
    this.cancelQueuedStmt = db.prepare<[number, number], RawJob>(
      `UPDATE jobs SET state = 'cancelled', finished_at = ?, error = 'cancelled before it ran'
       WHERE id = ? AND state = 'queued' RETURNING *`,
    );
    this.retryStmt = db.prepare<[number], RawJob>(
      `UPDATE jobs SET state = 'queued', attempts = 0, started_at = NULL, finished_at = NULL,
              exit_code = NULL, error = NULL, result = NULL
       WHERE id = ? AND state IN ('failed', 'cancelled') RETURNING *`,
    );
    this.oldestQueued = db.prepare<[string], { created_at: number }>(
      `SELECT created_at FROM jobs WHERE lane = ? AND state = 'queued' ORDER BY id LIMIT 1`,
    );
  }

  /** Queued work is synced to disk before the caller hears its id. */
  enqueue(jobs: NewJob[], now: number): number[] {
    return durably(this.db, () =>
      jobs.map((j) => Number(this.insert.run(j.lane, JSON.stringify(j.spec), j.maxAttempts, now).lastInsertRowid)),
    );
  }

  /** Records the outcome of one job and claims the lane's next, in one transaction. */
  finishAndClaim(
    done: { jobId: number; worker: string; attempt: number; outcome: RunOutcome } | null,
    next: { lane: string; worker: string } | null,
    now: number,
  ): { finished: RunningJob | null; claimed: RunningJob | null } {
    return this.db
      .transaction(() => {
        const finished = done ? this.finish(done.jobId, done.worker, done.attempt, done.outcome, now) : null;
        const raw = next ? this.claim.get(now, next.worker, next.lane) : undefined;
        return { finished, claimed: raw ? toJob(raw) : null };
      })
      .immediate();
  }

  private finish(id: number, worker: string, attempt: number, o: RunOutcome, now: number): RunningJob | null {
    const result = o.result === undefined ? null : JSON.stringify(o.result);
    const row = this.finishStmt.get({ state: o.state, now, exitCode: o.exitCode, error: o.error, result, id, worker, attempt });
    return row ? toJob(row) : null;
  }

  setPgid(id: number, pgid: number): void {
    this.pgidStmt.run(pgid, id);
  }

  runningFor(worker: string): RunningJob[] {
    return this.byWorker.all(worker).map(toJob);
  }

  allRunningJobs(): RunningJob[] {
    return this.allRunning.all().map(toJob);
  }

  /** Gives a running job back to the queue (or fails it when out of attempts). */
  requeue(job: RunningJob, why: string, now: number, opts: { refund?: boolean } = {}): RunningJob | null {
    const row = durably(this.db, () => {
      // An orderly stop is not the job's fault: give the attempt back.
      if (opts.refund) this.refundStmt.run(job.id, job.worker);
      return this.requeueStmt.get(now, why, job.id, job.worker);
    });
    return row ? toJob(row) : null;
  }

  get(id: number): RunningJob | undefined {
    const row = this.one.get(id);
    return row ? toJob(row) : undefined;
  }

  cancelQueued(id: number, now: number): RunningJob | null {
    const row = durably(this.db, () => this.cancelQueuedStmt.get(now, id));
    return row ? toJob(row) : null;
  }

  retry(id: number): RunningJob | null {
    const row = durably(this.db, () => this.retryStmt.get(id));
    return row ? toJob(row) : null;
  }

  /** When the lane's oldest queued job was queued; undefined when none waits. */
  oldestQueuedAt(lane: string): number | undefined {
    return this.oldestQueued.get(lane)?.created_at;
  }
}
