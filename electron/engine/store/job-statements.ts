// The SQL of the durable queue, prepared once. Every state change is one guarded UPDATE, so a
// late answer from a worker that has already been given up on can never record a job twice. The
// queue's own index (jobs_ready, migration 0013) is named where a query must use it: a claim
// seeks the head of its lane's queue, whatever the rest of the table holds.
import type { JobState } from '../../../shared/model.js';
import type { Db } from './db.js';
import { DEPS_LEFT, WAITING } from './job-waits.js';
import { CLAIMED_COLUMNS, FULL_COLUMNS, SUMMARY_COLUMNS, type AttemptRow, type ClaimedRow, type FullRow, type SummaryRow } from './job-rows.js';

/** A job found running: enough to end its processes and give it back. */
export interface RunningRow {
  id: number;
  lane: string;
  attempts: number;
  worker: string | null;
  interrupted: number;
}

const RETURNING = `RETURNING ${SUMMARY_COLUMNS}`;
const RUNNING_COLUMNS = 'id, lane, attempts, worker, interrupted';
/** The running jobs, as their partial index holds them (migration 0013); a query must say so to use it. */
const RUNNING = "jobs INDEXED BY jobs_running WHERE state = 'running'";
/**
 * The queue's head (jobs_ready, migration 0013): queued, waiting for no other job and no time,
 * highest priority then oldest; a query must repeat the index's condition to use it.
 */
const HEAD = "jobs INDEXED BY jobs_ready WHERE state = 'queued' AND deps_left = 0 AND not_before IS NULL";
/** Past any retry wait, and in no worker's hand (`@skip`: a JSON array of ids). */
const READY = "(run_after IS NULL OR run_after <= @now) AND id NOT IN (SELECT value FROM json_each(@skip))";
const FINISHED = "('succeeded', 'failed', 'cancelled')";
const CANCELLED = "state = 'cancelled', finished_at = @now, error = 'cancelled before it ran', run_after = NULL";
// A person's retry gives a fresh set of attempts, numbered on from those it had: its history never
// holds two runs under one number. A job that runs after others counts afresh which of them it
// still waits for. It waits from the retry (`@now`), not from when it was first queued.
const REQUEUED = `state = 'queued', max_attempts = attempts + max_attempts, started_at = NULL, finished_at = NULL,
  exit_code = NULL, error = NULL, blocked_by = NULL, result = NULL, run_after = NULL, interrupted = 0, ready_at = @now, deps_left = ${DEPS_LEFT}`;
const STARTED = `state = 'running', attempts = attempts + 1, started_at = @now, worker = @worker,
  finished_at = NULL, exit_code = NULL, error = NULL, run_after = NULL, progress = NULL`;

/**
 * Jobs a worker may hold in hand beyond the one it runs, when its lane's backlog is deep and its
 * jobs take a few milliseconds (hands.ts): each refill is a query and a message, paid for 16 jobs here.
 */
export const HAND_MAX = 16;
/** Jobs one step of a bulk cancel or retry changes: a few milliseconds of the engine's time. */
export const BULK_CHUNK = 2_000;

interface ClaimArgs {
  now: number;
  worker: string;
  lane: string;
  skip: string;
}

/** A statement whose rows are read as arrays (job-rows.ts says why). */
const rawOf =
  (db: Db) =>
  <P extends unknown[], R extends unknown[]>(sql: string) =>
    db.prepare<P, R>(sql).raw();

export function prepareJobStatements(db: Db) {
  return { ...runStatements(db), ...lookupStatements(db), ...personStatements(db) };
}

/** A run's life: queued, claimed or taken in hand, started, finished, given back or failed. */
function runStatements(db: Db) {
  const raw = rawOf(db);
  return {
    insert: raw<[string, string, string, number, number | null, number, number, number | null, string | null, number | null], SummaryRow>(
      `INSERT INTO jobs (lane, spec, command, max_attempts, timeout_ms, created_at, priority, not_before, labels, restart_of) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ${RETURNING}`,
    ),
    // Many at once: a JSON array of rows, each [lane, spec, command, max_attempts, timeout_ms, priority, not_before, labels, restart_of].
    insertAll: raw<[number, string], [id: number]>(
      `INSERT INTO jobs (lane, spec, command, max_attempts, timeout_ms, created_at, priority, not_before, labels, restart_of)
       SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, ?, value ->> 5, value ->> 6, value ->> 7, value ->> 8 FROM json_each(?) ORDER BY key RETURNING id`,
    ),
    claim: raw<[ClaimArgs], ClaimedRow>(
      `UPDATE jobs SET ${STARTED}
       WHERE id = (SELECT id FROM ${HEAD} AND lane = @lane AND ${READY} ORDER BY priority DESC, id LIMIT 1)
       RETURNING ${CLAIMED_COLUMNS}`,
    ),
    // A job in a worker's hand that it has gone on to; it is still queued until now.
    startInHand: raw<[{ now: number; worker: string; id: number }], ClaimedRow>(`UPDATE jobs SET ${STARTED} WHERE id = @id AND state = 'queued' RETURNING ${CLAIMED_COLUMNS}`),
    // The next jobs of a lane for a worker's hand: read, not marked; the engine remembers them.
    // A fixed LIMIT: one bound to a parameter makes SQLite prepare the statement again each time.
    hand: raw<[Omit<ClaimArgs, 'worker'>], ClaimedRow>(
      `SELECT ${CLAIMED_COLUMNS} FROM jobs
       WHERE id IN (SELECT id FROM ${HEAD} AND lane = @lane AND ${READY} ORDER BY priority DESC, id LIMIT ${HAND_MAX}) ORDER BY priority DESC, id`,
    ),
    // A failed run goes back in the queue while it has attempts left, to wait for its retry. A
    // persistent worker's command loading for this job is the worker's time, not the job's: the
    // job counts as started once it was loaded (load_ms keeps how long that took).
    finish: raw<[Record<string, unknown>], SummaryRow>(
      `UPDATE jobs SET
         started_at = CASE WHEN @loadMs IS NULL THEN started_at ELSE min(started_at + @loadMs, @now) END,
         state = CASE WHEN @state = 'failed' AND NOT @final AND attempts < max_attempts THEN 'queued' ELSE @state END,
         finished_at = CASE WHEN @state = 'failed' AND NOT @final AND attempts < max_attempts THEN NULL ELSE @now END,
         run_after = CASE WHEN @state = 'failed' AND NOT @final AND attempts < max_attempts THEN @retryAt ELSE NULL END,
         exit_code = @exitCode, error = @error, result = @result, load_ms = coalesce(@loadMs, load_ms), worker = NULL, interrupted = 0
       WHERE id = @id AND state = 'running' AND worker = @worker AND attempts = @attempt
       ${RETURNING}`,
    ),
    // A claimed job that cannot run at all (its stored spec fails the parse): failed for good,
    // however many attempts it had left, since no retry would read it differently.
    reject: raw<[Record<string, unknown>], SummaryRow>(
      `UPDATE jobs SET state = 'failed', finished_at = @now, run_after = NULL, exit_code = NULL, error = @error, worker = NULL, interrupted = 0
       WHERE id = @id AND state = 'running' AND worker = @worker AND attempts = @attempt
       ${RETURNING}`,
    ),
    // A job whose worker died, was given up on, or was stopped with the engine. A run that was
    // not the job's fault (refunded) keeps its number in the history; the job gets one more.
    requeue: raw<[Record<string, unknown>], SummaryRow>(
      `UPDATE jobs SET
         max_attempts = CASE WHEN @refund THEN max_attempts + 1 ELSE max_attempts END,
         state = CASE WHEN @refund OR attempts < max_attempts THEN 'queued' ELSE 'failed' END,
         finished_at = CASE WHEN @refund OR attempts < max_attempts THEN NULL ELSE @now END,
         run_after = CASE WHEN @refund OR attempts >= max_attempts THEN NULL ELSE @retryAt END,
         error = @error, worker = NULL, interrupted = @interrupted
       WHERE id = @id AND state = 'running' AND worker IS @worker
       ${RETURNING}`,
    ),
    // How far a job has got, from the run that said it: its last word may be written just after
    // the run was recorded as ended; a word from an earlier run changes nothing (a new run starts
    // from none, and a queued job shows none).
    progress: raw<[{ id: number; attempt: number; progress: string }], SummaryRow>(
      `UPDATE jobs SET progress = @progress WHERE id = @id AND attempts = @attempt ${RETURNING}`,
    ),
    failSuspect: raw<[number, string, number, number], SummaryRow>(
      `UPDATE jobs SET state = 'failed', finished_at = ?, error = ?, worker = NULL, interrupted = ?, run_after = NULL
       WHERE id = ? AND state = 'running' ${RETURNING}`,
    ),
    attempt: db.prepare(
      `INSERT INTO job_attempts (job_id, attempt, started_at, finished_at, outcome, exit_code, error)
       SELECT id, attempts, started_at, ?, ?, ?, ? FROM jobs WHERE id = ?`,
    ),
  };
}

/** What the store reads of its jobs, and its own upkeep (commands described, flags). */
function lookupStatements(db: Db) {
  const raw = rawOf(db);
  return {
    runningById: db.prepare<[number, string], RunningRow>(`SELECT ${RUNNING_COLUMNS} FROM jobs WHERE id = ? AND state = 'running' AND worker = ?`),
    // Covering: the index holds lane and id, so finding the running few reads no rows.
    allRunning: db.prepare<[], { id: number }>(`SELECT id FROM ${RUNNING}`),
    runningRow: db.prepare<[number], RunningRow>(`SELECT ${RUNNING_COLUMNS} FROM jobs WHERE id = ?`),
    one: raw<[number], FullRow>(`SELECT ${FULL_COLUMNS} FROM jobs WHERE id = ?`),
    summary: raw<[number], SummaryRow>(`SELECT ${SUMMARY_COLUMNS} FROM jobs WHERE id = ?`),
    state: db.prepare<[number], { state: JobState }>('SELECT state FROM jobs WHERE id = ?'),
    history: db.prepare<[number], AttemptRow>('SELECT attempt, started_at, finished_at, outcome, exit_code, error FROM job_attempts WHERE job_id = ? ORDER BY id'),
    createdAt: db.prepare<[number], { created_at: number }>('SELECT created_at FROM jobs WHERE id = ?'),
    // The head of each priority in turn, highest first, among the jobs runnable since they were
    // queued (the oldest of them is the oldest of these heads); and the earliest moment one of the
    // others became runnable (job-reads.ts).
    plainHeadBelow: db.prepare<[string, number], { priority: number; id: number }>(
      `SELECT priority, id FROM ${HEAD} AND lane = ? AND priority < ? AND ready_at IS NULL ORDER BY priority DESC, id LIMIT 1`,
    ),
    firstReadyAt: db.prepare<[string], { at: number | null }>(
      `SELECT min(ready_at) AS at FROM jobs INDEXED BY jobs_ready_at WHERE state = 'queued' AND deps_left = 0 AND not_before IS NULL AND ready_at IS NOT NULL AND lane = ?`,
    ),
    // Retries waiting out their backoff; a job waiting for other jobs or its time is not counted
    // here (job-waits.ts counts those). The index keeps the name of its migration.
    backingOff: db.prepare<[number], { lane: string; n: number; next: number }>(
      `SELECT lane, count(*) AS n, min(run_after) AS next FROM jobs INDEXED BY jobs_delayed
       WHERE state = 'queued' AND run_after IS NOT NULL AND run_after > ? AND deps_left = 0 AND not_before IS NULL GROUP BY lane`,
    ),
    undescribed: db.prepare<[], { id: number; spec: string }>('SELECT id, spec FROM jobs WHERE command IS NULL LIMIT 1000'),
    describe: db.prepare('UPDATE jobs SET command = ? WHERE id = ?'),
    flag: db.prepare<[string], { value: number }>('SELECT value FROM store_flags WHERE name = ?'),
    setFlag: db.prepare('INSERT OR REPLACE INTO store_flags (name, value) VALUES (?, ?)'),
  };
}

/** What a person changes: cancel, retry, restart, edit, one job or many a chunk at a time. */
function personStatements(db: Db) {
  const raw = rawOf(db);
  return {
    cancelQueued: raw<[number, number], SummaryRow>(
      `UPDATE jobs SET state = 'cancelled', finished_at = ?, error = 'cancelled before it ran', run_after = NULL
       WHERE id = ? AND state = 'queued' ${RETURNING}`,
    ),
    retry: raw<[{ id: number; now: number }], SummaryRow>(`UPDATE jobs SET ${REQUEUED} WHERE id = @id AND state IN ('failed', 'cancelled') ${RETURNING}`),
    // `lanes restart` of many, each a statement over the whole set (a JSON array of ids), so ten
    // thousand cost a few statements rather than ten thousand: how each stands (looked at
    // first, and again in the write), queued again in place, or copied as new jobs in the order asked.
    finishedStates: raw<[string], [asked: number, id: number | null, lane: string | null, state: JobState | null]>(
      'SELECT e.value, j.id, j.lane, j.state FROM json_each(?) e LEFT JOIN jobs j ON j.id = e.value ORDER BY e.key',
    ),
    requeueFinished: raw<[{ ids: string; now: number }], SummaryRow>(`UPDATE jobs SET ${REQUEUED} WHERE id IN (SELECT value FROM json_each(@ids)) AND state IN ${FINISHED} ${RETURNING}`),
    restartAsNew: raw<[number, string], SummaryRow>(
      `INSERT INTO jobs (lane, spec, command, max_attempts, timeout_ms, created_at, priority, not_before, labels, restart_of)
       SELECT j.lane, j.spec, j.command, j.max_attempts, j.timeout_ms, ?, j.priority, NULL, j.labels, j.id
       FROM json_each(?) e JOIN jobs j ON j.id = e.value WHERE j.state IN ${FINISHED} ORDER BY e.key ${RETURNING}`,
    ),
    // The new jobs' labels, as their copied rows carry them.
    labelNew: db.prepare<[string]>(
      `INSERT OR IGNORE INTO job_labels (label, job) SELECT l.value, j.id FROM jobs j, json_each(j.labels) l
       WHERE j.id IN (SELECT value FROM json_each(?)) AND j.labels IS NOT NULL`,
    ),
    // An edit of a job still queued: the whole row's runnable part, as the handler worked it out.
    edit: raw<[Record<string, unknown>], SummaryRow>(
      `UPDATE jobs SET spec = @spec, command = @command, max_attempts = @maxAttempts, timeout_ms = @timeoutMs, priority = @priority, not_before = @notBefore, labels = @labels
       WHERE id = @id AND state = 'queued' ${RETURNING}`,
    ),
    // Many at once, a chunk at a time (a request never holds the engine for long), by a JSON array
    // of ids (a primary-key lookup) or by lane (the lane's part of an index); `@skip`: ids in
    // workers' hands, which are theirs to drop.
    cancelQueuedIds: raw<[{ now: number; ids: string; skip: string }], SummaryRow>(
      `UPDATE jobs SET ${CANCELLED} WHERE id IN (SELECT value FROM json_each(@ids)) AND state = 'queued' AND id NOT IN (SELECT value FROM json_each(@skip)) ${RETURNING}`,
    ),
    cancelQueuedLane: raw<[{ now: number; lane: string; skip: string }], SummaryRow>(
      `UPDATE jobs SET ${CANCELLED}
       WHERE id IN (SELECT id FROM (SELECT id FROM ${HEAD} AND lane = @lane AND id NOT IN (SELECT value FROM json_each(@skip)) LIMIT ${BULK_CHUNK})
                    UNION ALL SELECT id FROM (SELECT id FROM ${WAITING} AND lane = @lane LIMIT ${BULK_CHUNK}))
       ${RETURNING}`,
    ),
    // Looked at first (job-changes/bulk.ts): each is queued again from the state it was read in.
    retryIds: raw<[{ ids: string; now: number }], SummaryRow>(`UPDATE jobs SET ${REQUEUED} WHERE id IN (SELECT value FROM json_each(@ids)) AND state IN ('failed', 'cancelled') ${RETURNING}`),
    // A bulk retry's candidates, looked at before any is queued again (job-changes/bulk.ts): these
    // ids, or a lane's next chunk after a cursor, so jobs left as they are are not read again.
    retryableIds: db.prepare<[{ ids: string; states: string }], { id: number; state: 'failed' | 'cancelled' }>(
      'SELECT id, state FROM jobs WHERE id IN (SELECT value FROM json_each(@ids)) AND state IN (SELECT value FROM json_each(@states)) ORDER BY id',
    ),
    retryableLane: db.prepare<[{ lane: string; state: string; after: number }], { id: number; state: 'failed' | 'cancelled' }>(
      `SELECT id, state FROM jobs INDEXED BY jobs_unhappy WHERE lane = @lane AND id > @after AND state IN ('failed', 'cancelled') AND state = @state ORDER BY id LIMIT ${BULK_CHUNK}`,
    ),
  };
}

export type JobStatements = ReturnType<typeof prepareJobStatements>;
