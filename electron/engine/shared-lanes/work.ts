// Taking and finishing a shared lane's jobs for this engine's workers. A worker's report is one
// step: finish its job (BullMQ records the outcome, retries with Lanes' backoff or fails it for
// good) and, in the same call, take the next job. A job that must not run here (cancelled, not
// a Lanes job, a directory this machine lacks) is failed with the reason and the next one taken.
import { UnrecoverableError, type Job } from 'bullmq';
import type { AttemptRecord, JobSummary } from '../../../shared/model.js';
import type { ClaimedJob, Interruption, Report, RunningRow, Turn, TurnResult } from '../store/jobs.js';
import { describe } from './connections.js';
import { attemptError, cancelMark, checkClaimed, summaryOf, type BullFields, type BullState } from './job-data.js';
import { removeFiles, sizesOf, tailRow } from './logs.js';
import type { Held, LaneParts } from './parts.js';

/** Jobs refused in a row before a worker is answered with none: a queue full of bad jobs must not hold a turn. */
const REFUSALS_MAX = 20;

export function fieldsOfJob(job: Job): BullFields {
  return {
    name: job.name,
    timestamp: job.timestamp,
    processedOn: job.processedOn,
    finishedOn: job.finishedOn,
    attemptsStarted: job.attemptsStarted,
    maxAttempts: job.opts.attempts,
    failedReason: job.failedReason,
    stacktrace: job.stacktrace,
    progress: job.progress,
    processedBy: job.processedBy,
    delay: job.delay,
  };
}

/** Where BullMQ put a job it was told failed: for good, or back to wait out its backoff. */
const afterFailure = (job: Job): BullState => (job.finishedOn ? 'failed' : job.delay > 0 ? 'delayed' : 'waiting');

export class LaneWork {
  private seq = 0;

  constructor(private readonly p: LaneParts) {}

  turns(turns: readonly Turn[]): Promise<TurnResult[]> {
    return Promise.all(turns.map((t) => this.turn(t)));
  }

  private async turn(t: Turn): Promise<TurnResult> {
    const r: TurnResult = { finished: null, started: null, dropped: null, claimed: null, handed: [] };
    const wantsNext = t.pull !== null && t.pull.claimFirst;
    let next: { job: Job; token: string } | undefined;
    let asked = false;
    if (t.done) ({ finished: r.finished, next, asked } = await this.finish(t.done, wantsNext));
    if (wantsNext && (next || !asked)) r.claimed = await this.claim(next, t.pull!.worker);
    return r;
  }

  /** A job for `worker`: `first` if it may run here, else the next that may; null when none waits (or Redis is away). */
  private async claim(first: { job: Job; token: string } | undefined, worker: string): Promise<ClaimedJob | null> {
    let candidate = first ?? (await this.take());
    for (let i = 0; candidate && i < REFUSALS_MAX; i++) {
      const { job, token } = candidate;
      const id = this.p.idOf(job.id);
      const cancelledAt = cancelMark(job.progress);
      const checked = id === null ? { problem: 'its id is not one Lanes gives', retry: false } : checkClaimed(job.data, this.p.lane.workerCommand !== null, this.p.deps.machine);
      if (id !== null && cancelledAt === null && !('problem' in checked)) return this.assign(job, token, worker, id, checked);
      const why = cancelledAt !== null ? 'cancelled before it ran' : 'problem' in checked ? `not run: ${checked.problem}` : '';
      candidate = await this.refuse(job, token, why, cancelledAt !== null, 'problem' in checked && checked.retry);
    }
    return null;
  }

  private async take(): Promise<{ job: Job; token: string } | undefined> {
    if (!this.p.conns.reachable) return undefined;
    const token = `${this.p.worker.id}:${++this.seq}`;
    try {
      const job = await this.p.worker.getNextJob(token, { block: false });
      return job ? { job, token } : undefined;
    } catch (error) {
      this.p.deps.log(`lane ${this.p.lane.name}: could not take a job: ${describe(error)}`);
      return undefined;
    }
  }

  private assign(job: Job, token: string, worker: string, id: number, checked: { spec: object; timeoutMs: number | null }): ClaimedJob {
    const held: Held = { job, token, worker, attempt: job.attemptsStarted, sentSize: 0 };
    this.p.held.set(job.id!, held);
    this.p.worker.hold(job, token);
    const summary = summaryOf(id, this.p.lane.name, 'active', { ...fieldsOfJob(job), processedBy: job.processedBy ?? this.p.deps.machine });
    return { ...summary, specJson: JSON.stringify(checked.spec), timeoutMs: checked.timeoutMs };
  }

  /** A taken job that must not run here: failed with the reason (cancelled ones as cancelled); the next one comes back in the same call. */
  private async refuse(job: Job, token: string, why: string, cancelled: boolean, retry: boolean): Promise<{ job: Job; token: string } | undefined> {
    const record: AttemptRecord = { attempt: job.attemptsStarted, startedAt: null, finishedAt: Date.now(), outcome: cancelled ? 'cancelled' : 'failed', exitCode: null, error: why };
    try {
      const error = retry ? new Error(why) : new UnrecoverableError(why);
      const res = await job.moveToFailed(attemptError(record, error), token, this.p.conns.reachable);
      if (cancelled) await this.p.conns.work.hincrby(this.p.key('meta'), 'cancelled', 1);
      this.announce(job, afterFailure(job));
      const next = await this.p.worker.fetched(res, token);
      return next ? { job: next, token } : undefined;
    } catch (error) {
      this.p.deps.log(`lane ${this.p.lane.name}: could not set aside job ${job.id}: ${describe(error)}`);
      return undefined;
    }
  }

  /** Records a worker's outcome; with `fetch`, BullMQ hands back the next job in the same call. */
  private async finish(done: Report, fetch: boolean): Promise<{ finished: JobSummary | null; next?: { job: Job; token: string }; asked: boolean }> {
    const bullId = this.p.bullId(done.jobId);
    const h = this.p.held.get(bullId);
    if (!h || h.worker !== done.worker || h.attempt !== done.attempt) return { finished: null, asked: false };
    this.letGo(bullId);
    const paths = this.p.deps.logPaths(done.jobId);
    const row = tailRow(paths);
    const o = done.outcome;
    const asked = fetch && this.p.conns.reachable;
    let res: unknown;
    try {
      // The tail goes first, on the same connection, so whoever sees the job finished can read it.
      if (row) void h.job.log(row).catch(() => {});
      if (o.state === 'succeeded') res = await h.job.moveToCompleted(o.result ?? null, h.token, asked);
      else {
        const record: AttemptRecord = { attempt: h.attempt, startedAt: h.job.processedOn ?? null, finishedAt: Date.now(), outcome: o.state, exitCode: o.exitCode, error: o.error };
        const error = o.state === 'cancelled' ? new UnrecoverableError(o.error ?? 'cancelled while running') : new Error(o.error ?? 'failed');
        res = await h.job.moveToFailed(attemptError(record, error), h.token, asked);
        if (o.state === 'cancelled') await this.p.conns.work.hincrby(this.p.key('meta'), 'cancelled', 1);
      }
    } catch (error) {
      // Its lock was lost (Redis away longer than the lock lasts): BullMQ gives the job to whoever checks for stalled ones.
      this.p.deps.log(`lane ${this.p.lane.name}: the outcome of job ${done.jobId} could not be recorded (${describe(error)}); it will run again`);
      return { finished: null, asked: false };
    }
    if (row) removeFiles(paths);
    const finished = summaryOf(done.jobId, this.p.lane.name, o.state === 'succeeded' ? 'completed' : afterFailure(h.job), fieldsOfJob(h.job));
    const next = asked ? await this.p.worker.fetched(res, h.token) : undefined;
    return { finished, asked, ...(next ? { next: { job: next, token: h.token } } : {}) };
  }

  private letGo(bullId: string): void {
    this.p.held.delete(bullId);
    this.p.worker.letGo(bullId);
  }

  private announce(job: Job, state: BullState): void {
    const id = this.p.idOf(job.id);
    if (id !== null) this.p.deps.jobChanged(summaryOf(id, this.p.lane.name, state, fieldsOfJob(job)));
  }

  runningFor(worker: string, jobId: number | undefined): RunningRow[] {
    if (jobId === undefined) return [];
    const h = this.p.held.get(this.p.bullId(jobId));
    return h && h.worker === worker ? [{ id: jobId, lane: this.p.lane.name, attempts: h.attempt, worker, interrupted: 0 }] : [];
  }

  /** A run that ended without an outcome: back to wait at once (the engine stops), or failed for BullMQ to retry. */
  async requeue(job: RunningRow, how: Interruption): Promise<JobSummary | null> {
    const bullId = this.p.bullId(job.id);
    const h = this.p.held.get(bullId);
    if (!h || h.worker !== job.worker) return null;
    this.letGo(bullId);
    try {
      if (how.refund) {
        await h.job.moveToWait(h.token);
        return summaryOf(job.id, this.p.lane.name, 'waiting', fieldsOfJob(h.job));
      }
      const record: AttemptRecord = { attempt: h.attempt, startedAt: h.job.processedOn ?? null, finishedAt: Date.now(), outcome: 'interrupted', exitCode: null, error: how.why };
      await h.job.moveToFailed(attemptError(record, new Error(how.why)), h.token, false);
      return summaryOf(job.id, this.p.lane.name, afterFailure(h.job), fieldsOfJob(h.job));
    } catch (error) {
      this.p.deps.log(`lane ${this.p.lane.name}: job ${job.id} could not be given back (${describe(error)}); BullMQ gives it back once its lock expires`);
      return null;
    }
  }

  /** Running jobs' output so far, for engines that follow them from elsewhere: sent when it grew. */
  sendTails(): void {
    for (const h of this.p.held.values()) {
      const id = this.p.idOf(h.job.id);
      if (id === null) continue;
      const paths = this.p.deps.logPaths(id);
      const size = sizesOf(paths);
      if (size === h.sentSize) continue;
      h.sentSize = size;
      const row = tailRow(paths);
      if (row) void h.job.log(row).catch(() => {});
    }
  }
}
