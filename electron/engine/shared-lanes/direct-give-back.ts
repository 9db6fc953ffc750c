// The job of a worker that took it from Redis itself (shared-main.ts) and died with it: the engine
// gives it back at once, as it gives back a job it took itself (give-back.ts), rather than leave
// it locked until BullMQ's stalled check (40–55 s). The engine does not hold that job's lock; it
// finds it by the worker's mark on the lock (every token of that worker starts with its own
// prefix), among the lane's active jobs.
import { Job } from 'bullmq';
import type { AttemptRecord, JobSummary } from '../../../shared/model.js';
import type { Interruption, RunningRow } from '../store/jobs.js';
import { describe } from './connections.js';
import { afterFailure, attemptError, fieldsOfJob, summaryOf } from './job-data.js';
import { LANES_TOKEN } from './outsiders.js';
import type { LaneParts } from './parts.js';

/** Active jobs looked through for a dead worker's lock; a lane has no more running at once. */
const ACTIVE_LOOKED_MAX = 2_000;

/** What the tokens of a worker's locks start with: Lanes' mark, this engine, the pool's name for the worker. */
export function workerTokenPrefix(engineId: string, worker: string): string {
  return `${LANES_TOKEN}${engineId}.${worker}`.replace(/:/g, '_');
}

/** The dead worker's job, found by its lock, failed as interrupted (or, refunded, back to wait); null when it holds none. */
export async function giveBackDirect(p: LaneParts, row: RunningRow, how: Interruption): Promise<JobSummary | null> {
  const prefix = `${workerTokenPrefix(p.deps.engineId, row.worker ?? '')}:`;
  try {
    const client = p.conns.work;
    const ids = await client.lrange(p.queue.toKey('active'), 0, ACTIVE_LOOKED_MAX - 1);
    const locks = ids.length === 0 ? [] : await client.mget(ids.map((id) => `${p.queue.toKey(id)}:lock`));
    const at = locks.findIndex((lock) => lock !== null && lock.startsWith(prefix));
    if (at < 0) return null;
    const token = locks[at]!;
    // Read through the worker, whose settings hold Lanes' backoff (a retry is scheduled by it).
    const job = await Job.fromId(p.worker, ids[at]!);
    if (!job) return null;
    const id = await p.names.idFor(job.id);
    if (id === null) return null;
    if (how.refund) {
      await client.hincrby(p.queue.toKey(job.id!), 'ats', -1);
      await job.moveToWait(token);
      return summaryOf(id, p.lane.name, 'waiting', { ...fieldsOfJob(job), attemptsStarted: job.attemptsStarted - 1 });
    }
    const record: AttemptRecord = { attempt: job.attemptsStarted, startedAt: job.processedOn ?? null, finishedAt: Date.now(), outcome: 'interrupted', exitCode: null, error: how.why };
    await job.moveToFailed(attemptError(record, new Error(how.why)), token, false);
    return summaryOf(id, p.lane.name, afterFailure(job), fieldsOfJob(job));
  } catch (error) {
    p.deps.log(`lane ${p.lane.name}: the job of worker ${row.worker} could not be given back (${describe(error)}); BullMQ gives it back once its lock expires`);
    return null;
  }
}
