// The durable queue: what each state change means, and which of them must be on disk before
// anyone hears of it. Each change is a file of job-changes/ (its SQL in job-statements.ts); this
// class runs each in its transaction. Reads on the hot path return summaries: the spec is parsed
// only when a job is claimed, the answer only when it is asked for.
import type { Job, JobProgress, JobState, JobSummary } from '../../../shared/model.js';
import type { Db } from './db.js';
import type { JobCounts } from './counts.js';
import { toJob, toSummary } from './job-rows.js';
import { prepareJobStatements, type JobStatements, type RunningRow } from './job-statements.js';
import { JobWaits } from './job-waits.js';
import { notYetOf, oldestQueuedAt } from './job-reads.js';
import { BlockedCounts } from './blocked.js';
import type { ChunkSelect, ClaimedJob, Interruption, JobEdit, NewJob, NotYet, Report, RetriedChunk, Settled, Turn, TurnResult } from './job-types.js';
import { JobWrites } from './job-changes/change.js';
import { enqueue } from './job-changes/enqueue.js';
import { edit } from './job-changes/edit.js';
import { turn } from './job-changes/turns.js';
import { finish } from './job-changes/finish.js';
import { failSuspect, requeue } from './job-changes/requeue.js';
import { cancelQueued } from './job-changes/cancel.js';
import { retry } from './job-changes/retry.js';
import { requeueFinishedAll, restartAsNew, type Restarted } from './job-changes/restart.js';
import { cancelQueuedChunk, retryChunk } from './job-changes/bulk.js';
import { describeOlderRows } from './job-changes/describe-older.js';

export type { RunningRow } from './job-statements.js';
export type * from './job-types.js';

/** A claimed job as lists and events carry it. */
export const summaryOf = ({ specJson: _spec, timeoutMs: _timeout, ...summary }: ClaimedJob): JobSummary => summary;

export class JobStore {
  private readonly s: JobStatements;
  private readonly writes: JobWrites;
  /** What jobs wait for besides a worker (job-waits.ts). */
  readonly waits: JobWaits;
  private readonly blockedCounts: BlockedCounts;

  constructor(
    db: Db,
    /** Kept here, where every state change happens, and counted only once it is committed. */
    readonly counts: JobCounts,
    walPath: string,
    /** Hears, once committed, what ending jobs did to the jobs that run after them. */
    settled: (s: Settled) => void = () => {},
  ) {
    this.s = prepareJobStatements(db);
    this.waits = new JobWaits(db);
    this.blockedCounts = new BlockedCounts(db);
    this.writes = new JobWrites(db, this.s, this.waits, counts, walPath, settled);
    describeOlderRows(db, this.s);
  }

  /** On disk before the caller hears of it; requests made meanwhile share one transaction and one sync. */
  enqueue(jobs: NewJob[], now: number): Promise<JobSummary[]> {
    return this.writes.commit((c) => enqueue(c, jobs, now));
  }

  /** A queued job changed before it runs, durably; null when it is no longer queued. */
  edit(id: number, e: JobEdit): JobSummary | null {
    return this.writes.write(true, (c) => edit(c, id, e, Date.now()));
  }

  /** `lanes restart --in-place` of many in one write: all queued again, or a refusal and none. */
  requeueFinishedAll(ids: readonly number[], together?: ReadonlySet<number>): Promise<Restarted> {
    return this.writes.commit((c) => requeueFinishedAll(c, ids, together));
  }

  /** `lanes restart` of many in one write: a new job for each, linked to it, or a refusal and none. */
  restartAsNew(ids: readonly number[], now: number): Promise<Restarted> {
    return this.writes.commit((c) => restartAsNew(c, ids, now));
  }

  /** How each of these stands, in the order asked: [the id asked, the id if it is here, its lane, its state]. */
  statesOf(ids: readonly number[]): [asked: number, id: number | null, lane: string | null, state: JobState | null][] {
    return this.s.finishedStates.all(JSON.stringify(ids));
  }

  /** Lets go of the scheduled times that have come (before each sizing pass); the lanes where jobs became runnable. */
  releaseDue(now: number): Set<string> {
    return this.waits.releaseDue(now);
  }

  /** Once the writes waiting for a sync are on disk. */
  close(): Promise<void> {
    return this.writes.close();
  }

  /** Records the outcome of one job (held while the disk was full), in a transaction of its own. */
  finishOne(done: Report, now: number): JobSummary | null {
    return this.writes.write(false, (c) => finish(c, done, now));
  }

  /**
   * The reports of one turn of the event loop, from every worker that sent one, in one
   * transaction: the pages they share (the table's newest rows, the queue's head) are written
   * once for all of them (job-changes/turns.ts).
   */
  recordTurns(turns: readonly Turn[], inHand: Map<string, Set<number>>, now: number): TurnResult[] {
    return this.writes.write(false, (c) => turns.map((t) => turn(c, t, inHand, now)));
  }

  /**
   * How far jobs have got, in one transaction, not synced: a crash loses at most the last few
   * reports, which the next ones replace anyway. Each as its run said it (the last word of a run
   * may come just after its outcome); the summaries of the jobs whose run it was.
   */
  recordProgress(reports: readonly { id: number; attempt: number; progress: JobProgress }[]): JobSummary[] {
    return this.writes.write(false, (c) =>
      reports.flatMap(({ id, attempt, progress }) => {
        const row = c.s.progress.get({ id, attempt, progress: JSON.stringify(progress) });
        return row ? [toSummary(row)] : [];
      }),
    );
  }

  /** The job a worker holds (the pool knows which), if the store agrees it is running there. */
  runningFor(worker: string, jobId: number | undefined): RunningRow[] {
    const row = jobId === undefined ? undefined : this.s.runningById.get(jobId, worker);
    return row ? [row] : [];
  }

  allRunning(): RunningRow[] {
    return this.s.allRunning.all().flatMap(({ id }) => this.s.runningRow.get(id) ?? []);
  }

  /** Gives a running job back to the queue (or fails it when out of attempts), keeping why. */
  requeue(job: RunningRow, how: Interruption, now: number, interrupted = 0): JobSummary | null {
    return this.writes.write(true, (c) => requeue(c, job, how, now, interrupted));
  }

  /** A job the engine died under too often: failed, with why, until a person retries it. */
  failSuspect(job: RunningRow, why: string, now: number): JobSummary | null {
    return this.writes.write(true, (c) => failSuspect(c, job, why, now));
  }

  get(id: number): Job | undefined {
    const row = this.s.one.get(id);
    return row ? { ...toJob(row, this.s.history.all(id)), ...this.waits.linksOf(id) } : undefined;
  }

  summary(id: number): JobSummary | undefined {
    const row = this.s.summary.get(id);
    return row ? toSummary(row) : undefined;
  }

  cancelQueued(id: number, now: number): JobSummary | null {
    return this.writes.write(true, (c) => cancelQueued(c, id, now));
  }

  /** A failed or cancelled job queued again; null when it is neither; refused (conflict) when a job it runs after can no longer succeed. */
  retry(id: number): JobSummary | null {
    return this.writes.write(true, (c) => retry(c, id));
  }

  /** One chunk of a bulk cancel of queued jobs (job-changes/bulk.ts); on disk before it returns. */
  cancelQueuedChunk(select: ChunkSelect, skip: readonly number[], now: number): Promise<JobSummary[]> {
    return this.writes.commit((c) => cancelQueuedChunk(c, select, skip, now));
  }

  /** One chunk of a bulk retry of jobs in `states` (a lane's, in the first, after `afterId`); on disk before it returns. */
  retryChunk(select: ChunkSelect, states: readonly ('failed' | 'cancelled')[], afterId?: number): Promise<RetriedChunk> {
    return this.writes.commit((c) => retryChunk(c, select, states, afterId));
  }

  /** When the lane's oldest runnable queued job was queued; undefined when none waits. */
  oldestQueuedAt(lane: string): number | undefined {
    return oldestQueuedAt(this.s, lane);
  }

  /** Of the lane's failed jobs, the dependents that never ran (blocked.ts). */
  blocked(lane: string): number {
    return this.blockedCounts.of(lane, this.counts.get(lane));
  }

  /** Per lane, the queued jobs that cannot run yet (job-reads.ts). */
  notYet(now: number): Map<string, NotYet> {
    return notYetOf(this.s, this.waits, now);
  }
}
