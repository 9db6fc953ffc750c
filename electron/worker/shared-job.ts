// One job of a shared lane, as a worker that takes its jobs from BullMQ itself runs it: the same
// checks as a job sent to the engine's API (checkClaimed), the same run as any Lanes job (a shell
// or argv job in its own group and cgroup, or a payload for the lane's worker command), and the
// outcome as BullMQ keeps it: Lanes' returnvalue with the exit code, or a failure whose stack is
// Lanes' record of the attempt. A job that must not run here is failed once with the reason,
// never run; one cancelled before it ran is failed as cancelled.
import { UnrecoverableError, WaitingError, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { AttemptRecord } from '../../shared/model.js';
import type { JobAssignment, JobOutcome } from '../worker-protocol/protocol.js';
import { attemptError, cancelMark, checkClaimed, returnValue } from '../engine/shared-lanes/job-data.js';
import { removeFiles, sizesOf, tailRow } from '../engine/shared-lanes/logs.js';
import type { NamedIds } from '../engine/shared-lanes/named-ids.js';
import type { LogPaths } from '../job-control/log-paths.js';
import type { RunningProcess } from './shell-job.js';

/** A running job's output tail goes to Redis this often, when it grew (what other engines read of it). */
const TAIL_EVERY_MS = 2_000;

/** What running one job needs from the worker around it. */
export interface SharedJobPort {
  machine: string;
  persistentLane: boolean;
  names: NamedIds;
  redis: Redis;
  /** BullMQ's key of a job's hash. */
  jobKey(bullId: string): string;
  logPaths(id: number): LogPaths;
  /** Hands the job to its process (a shell job's, or the worker command); throws when it cannot start. */
  start(job: JobAssignment): RunningProcess;
  /** The job runs (or stopped running): what the engine hears of it, and what a cancel reaches. */
  running(job: { id: number; run: RunningProcess } | null): void;
}

/** A failure Lanes' way: its words for BullMQ's tools, Lanes' record in its stack; retried by BullMQ only when `retry`. */
function failure(record: AttemptRecord, retry: boolean): Error {
  const why = record.error ?? record.outcome;
  return attemptError(record, retry ? new Error(why) : new UnrecoverableError(why));
}

/** Marks a failure as a cancel, for the lane's count of cancelled jobs (shared-main.ts). */
export const CANCELLED = Symbol('cancelled');

function refused(job: Job, why: string, cancelled: boolean, retry: boolean): Error {
  const error = failure({ attempt: job.attemptsStarted, startedAt: null, finishedAt: Date.now(), outcome: cancelled ? 'cancelled' : 'failed', exitCode: null, error: why }, retry);
  if (cancelled) Object.assign(error, { [CANCELLED]: true });
  return error;
}

/** BullMQ's processor for a shared lane: what it returns is the job's returnvalue; what it throws, its failure. */
export async function runSharedJob(port: SharedJobPort, job: Job, ends: { closing(): boolean; givingBack(): boolean }): Promise<object> {
  // Taken as the worker was told to go (BullMQ's wait for a job had already been answered): back, unrun.
  if (ends.closing()) await giveBack(port, job);
  const id = await port.names.idFor(job.id);
  if (id === null) throw refused(job, 'not run: its BullMQ id is not one Lanes can number (empty, or longer than 500 characters)', false, false);
  if (cancelMark(job.progress) !== null) throw refused(job, 'cancelled before it ran', true, false);
  const checked = checkClaimed(job.data, port.persistentLane, port.machine);
  if ('problem' in checked) throw refused(job, `not run: ${checked.problem}`, false, checked.retry);
  const paths = port.logPaths(id);
  const assignment: JobAssignment = { id, attempt: job.attemptsStarted, specJson: JSON.stringify(checked.spec), timeoutMs: checked.timeoutMs, ...paths };
  const startedAt = Date.now();
  let outcome: JobOutcome;
  try {
    const run = port.start(assignment);
    port.running({ id, run });
    outcome = await withTails(job, paths, run.done);
  } catch (error) {
    outcome = { state: 'failed', exitCode: null, error: (error as Error).message };
  } finally {
    port.running(null);
  }
  if (ends.givingBack()) await giveBack(port, job);
  // The tail goes first, on the same connection, so whoever sees the job finished can read it.
  const row = tailRow(paths);
  if (row) {
    void job.log(row).catch(() => {});
    removeFiles(paths);
  }
  if (outcome.state === 'succeeded') return returnValue(id, port.machine, outcome.result, port.persistentLane);
  const record: AttemptRecord = { attempt: assignment.attempt, startedAt, finishedAt: Date.now(), outcome: outcome.state, exitCode: outcome.exitCode, error: outcome.error };
  // BullMQ retries nothing unrecoverable: a cancel, or a payload the worker refused for good.
  const error = failure({ ...record, error: outcome.error ?? (outcome.state === 'cancelled' ? 'cancelled while running' : 'failed') }, outcome.state === 'failed' && !outcome.final);
  if (outcome.state === 'cancelled') Object.assign(error, { [CANCELLED]: true });
  throw error;
}

/**
 * Back to wait at once, on the attempt it was to be: BullMQ counted a start when it was taken, and
 * the count is undone while the job is still locked here (give-back.ts does the same for the
 * engine). BullMQ then leaves the job where it is (a WaitingError says it was moved).
 */
async function giveBack(port: SharedJobPort, job: Job): Promise<never> {
  try {
    await port.redis.hincrby(port.jobKey(job.id!), 'ats', -1);
    await job.moveToWait(job.token);
  } catch {
    // Its lock runs out instead, and the stalled check gives it back (its start then counts).
  }
  throw new WaitingError();
}

/** While the job runs, its output's tail is sent when it grew, so a `lanes log` elsewhere follows it. */
async function withTails(job: Job, paths: LogPaths, done: Promise<JobOutcome>): Promise<JobOutcome> {
  let sent = 0;
  const timer = setInterval(() => {
    const size = sizesOf(paths);
    if (size === sent) return;
    sent = size;
    const row = tailRow(paths);
    if (row) void job.log(row).catch(() => {});
  }, TAIL_EVERY_MS);
  timer.unref();
  try {
    return await done;
  } finally {
    clearInterval(timer);
  }
}
