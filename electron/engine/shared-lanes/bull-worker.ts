// BullMQ's Worker, driven by hand. Lanes' own worker processes run the jobs, so this engine takes
// each job from BullMQ when one of its workers asks (getNextJob), and finishes it when the worker
// reports (moveToCompleted / moveToFailed, which hand back the next job in the same call). What
// BullMQ does for a worker it keeps doing: the lock of every job held here is renewed by its lock
// manager, and its stalled-job check gives back the jobs of an engine that died.
//
// A job whose record is not JSON where BullMQ expects it (written by something else than Lanes)
// would make BullMQ throw while taking it, and stay taken until its lock ran out, again and again.
// It is taken all the same, with data that says why it cannot be read, so it is failed once.
import { Job, Worker, type JobJson } from 'bullmq';
import type { Redis } from 'ioredis';
import { backoffMs } from '../backoff.js';
import { BACKOFF_TYPE, PREFIX, UNREADABLE } from './job-data.js';

/**
 * A job's lock lasts LOCK_MS and is renewed every LOCK_RENEW_MS; every engine looks for jobs whose
 * lock ran out every STALLED_CHECK_MS. A lock has at least LOCK_MS − LOCK_RENEW_MS (35 s) left
 * when Redis stops answering, so a stall or an outage shorter than that re-runs nothing: a job
 * that finished meanwhile is recorded once Redis answers. The price: a killed engine's jobs run
 * elsewhere 35–55 s after it died (docs/shared-lanes.md weighs the two).
 */
export const LOCK_MS = 45_000;
export const LOCK_RENEW_MS = 10_000;
export const STALLED_CHECK_MS = 10_000;

export class LaneWorker extends Worker {
  constructor(name: string, connection: Redis, machine: string) {
    super(name, null, {
      autorun: false,
      connection,
      prefix: PREFIX,
      // Stored on every job it takes: which machine ran it.
      name: machine,
      lockDuration: LOCK_MS,
      lockRenewTime: LOCK_RENEW_MS,
      stalledInterval: STALLED_CHECK_MS,
      // Stalled twice (its engine died under it twice): failed, as a local job is after two crashes (recovery.ts).
      maxStalledCount: 1,
      // Lifetime counts of succeeded and failed jobs, for the lane's status.
      metrics: { maxDataPoints: 60 },
      settings: { backoffStrategy: (attemptsMade: number, type?: string) => (type === BACKOFF_TYPE ? backoffMs(attemptsMade) : -1) },
    });
  }

  protected override createJob(data: JobJson, jobId: string): Job {
    try {
      return super.createJob(data, jobId);
    } catch (error) {
      const why = `${(error as Error).message ?? String(error)}`.split('\n')[0]!.slice(0, 200);
      return super.createJob({ ...data, data: JSON.stringify({ [UNREADABLE]: why }) }, jobId);
    }
  }

  /**
   * After a take that threw while reading the job's record (its options or progress not JSON,
   * which BullMQ reads before the data): the job is in the active list, locked with `token`. It
   * is found there, near the head where it was just put, as a job that says why it cannot be read.
   */
  async takenUnreadable(client: Redis, token: string, why: string): Promise<Job | undefined> {
    const ids = await client.lrange(this.toKey('active'), 0, 9);
    for (const id of ids) {
      if ((await client.get(`${this.toKey(id)}:lock`)) !== token) continue;
      const job = new Job(this, 'unreadable', { [UNREADABLE]: why.slice(0, 200) }, {}, id);
      job.attemptsStarted = Number(await client.hget(this.toKey(id), 'ats')) || 1;
      job.token = token;
      return job;
    }
    return undefined;
  }

  /** Starts renewing locks (for the jobs taken here) and checking for stalled jobs (everyone's). */
  begin(): Promise<void> {
    this.lockManager.start();
    return this.startStalledCheckTimer();
  }

  /** A job taken here: its lock is renewed until it is let go. */
  keepLocked(job: Job, token: string): void {
    this.lockManager.trackJob(job.id!, token, job.processedOn ?? Date.now());
  }

  letGo(bullId: string): void {
    this.lockManager.untrackJob(bullId);
  }

  /** The job a finish handed back (BullMQ's fetch-next), as a Job; undefined when none was waiting. */
  fetched(result: unknown, token: string): Promise<Job | undefined> {
    if (!Array.isArray(result)) return Promise.resolve(undefined);
    const [data, id] = result as [JobJson | undefined, string | undefined];
    return this.nextJobFromJobData(data, id, token);
  }
}
