// Shared jobs this engine holds and will not finish: a run that ended without an outcome (its
// worker died, the engine stops), and the jobs in a hand whose worker went away before it went
// on to them. Both go back through BullMQ at once, rather than waiting out their lock.
import type { Job } from 'bullmq';
import type { AttemptRecord, JobSummary } from '../../../shared/model.js';
import type { Interruption, RunningRow } from '../store/jobs.js';
import { describe } from './connections.js';
import { attemptError, summaryOf } from './job-data.js';
import { sizesOf, tailRow } from './logs.js';
import { letGo, type TakenJob, type LaneParts } from './parts.js';
import { afterFailure, fieldsOfJob } from './job-data.js';

/**
 * A job taken here that no worker will run: back to wait at once, on the attempt it was to be.
 * BullMQ counted a start when it was taken, and Lanes numbers attempts by that count; the count
 * is undone while the job is still locked here, before anyone else can take it. False when Redis
 * would not have it back: BullMQ then gives it back once its lock runs out.
 */
export async function untake(p: LaneParts, job: Job, token: string): Promise<boolean> {
  const key = p.queue.toKey(job.id!);
  const why = (error: unknown) => p.deps.log(`lane ${p.lane.name}: job ${job.id} could not be given back (${describe(error)}); BullMQ gives it back once its lock expires`);
  try {
    await p.conns.work.hincrby(key, 'ats', -1);
  } catch (error) {
    why(error);
    return false;
  }
  try {
    await job.moveToWait(token);
  } catch (error) {
    // Its lock was lost meanwhile (Redis away longer than a lock lasts): the count goes back as it was.
    void p.conns.work.hincrby(key, 'ats', 1).catch(() => {});
    why(error);
    return false;
  }
  return true;
}

export class GiveBack {
  /** Give-backs on their way to Redis: the lane waits for them before it closes. */
  private readonly pending = new Set<Promise<unknown>>();

  constructor(private readonly p: LaneParts) {}

  private track<T>(work: Promise<T>): Promise<T> {
    this.pending.add(work);
    void work.finally(() => this.pending.delete(work)).catch(() => {});
    return work;
  }

  settled(): Promise<unknown> {
    return Promise.allSettled([...this.pending]);
  }

  /**
   * The jobs `worker` went on to, as held here (not those still in its hand). Asked as it dies,
   * that can be one more than the pool knows of: its word that it went on to the next may still
   * be on its way back from Redis.
   */
  runningFor(worker: string): RunningRow[] {
    const rows: RunningRow[] = [];
    for (const h of this.p.taken.values()) {
      if (h.worker === worker && h.startedAt !== null) rows.push({ id: h.id, lane: this.p.lane.name, attempts: h.attempt, worker, interrupted: 0 });
    }
    return rows;
  }

  /** A run that ended without an outcome: back to wait at once (the engine stops), or failed for BullMQ to retry. */
  requeue(job: RunningRow, how: Interruption): Promise<JobSummary | null> {
    return this.track(this.putBack(job, how));
  }

  private async putBack(job: RunningRow, how: Interruption): Promise<JobSummary | null> {
    const h = this.p.taken.get(job.id);
    if (!h || h.worker !== job.worker) return null;
    letGo(this.p, h);
    try {
      if (how.refund) {
        await h.job.moveToWait(h.token);
        return summaryOf(job.id, this.p.lane.name, 'waiting', fieldsOfJob(h.job));
      }
      const record: AttemptRecord = { attempt: h.attempt, startedAt: h.startedAt, finishedAt: Date.now(), outcome: 'interrupted', exitCode: null, error: how.why };
      await h.job.moveToFailed(attemptError(record, new Error(how.why)), h.token, false);
      return summaryOf(job.id, this.p.lane.name, afterFailure(h.job), fieldsOfJob(h.job));
    } catch (error) {
      this.p.deps.log(`lane ${this.p.lane.name}: job ${job.id} could not be given back (${describe(error)}); BullMQ gives it back once its lock expires`);
      return null;
    }
  }

  /**
   * Jobs taken for `worker` that it never went on to (it went away, or gave them back): back to wait at once, on the
   * attempt they were to be, so whoever takes one next runs it as if it had never been taken.
   */
  handBack(worker: string, ids: readonly number[]): Promise<JobSummary[]> {
    const mine: [number, TakenJob][] = [];
    for (const id of ids) {
      const h = this.p.taken.get(id);
      if (!h || h.worker !== worker) continue;
      letGo(this.p, h);
      mine.push([id, h]);
    }
    return this.track(Promise.all(mine.map(([id, h]) => this.unTake(id, h)))).then((back) => back.filter((j): j is JobSummary => j !== null));
  }

  private async unTake(id: number, h: TakenJob): Promise<JobSummary | null> {
    if (!(await untake(this.p, h.job, h.token))) return null;
    return summaryOf(id, this.p.lane.name, 'waiting', { ...fieldsOfJob(h.job), attemptsStarted: h.job.attemptsStarted - 1, processedOn: null, processedBy: null });
  }

  /** Running jobs' output so far, for engines that follow them from elsewhere: sent when it grew. */
  sendTails(): void {
    for (const h of this.p.taken.values()) {
      if (h.startedAt === null) continue;
      const paths = this.p.deps.logPaths(h.id);
      const size = sizesOf(paths);
      if (size === h.sentSize) continue;
      h.sentSize = size;
      const row = tailRow(paths);
      if (row) void h.job.log(row).catch(() => {});
    }
  }
}
