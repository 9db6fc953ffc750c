// A shared job as it is kept in BullMQ, and read back. Redis is a boundary: whatever another
// engine (or anyone who can write to that Redis) put there is checked here before it is shown
// or run, with the same schema that checks a job queued through the API, so a job from Redis can
// carry nothing a request could not.
//
//   name        the one-line command lists show (≤ 200 characters)
//   data        { lanes?: 1, spec, timeoutMs? }: the public shape (checkData)
//   opts        attempts, priority (bullPriority), Lanes' backoff, retention of finished jobs, one log row (logs.ts)
//   returnvalue a success's {lanes: 1, id, exitCode, machine, result?}: Lanes' mark (returnValue)
//   progress    0, or { cancel: ms }: someone asked that it not run (cancel.ts)
//   stacktrace  one entry per attempt that did not succeed: a line of words, then its record (attemptError)
import { isDirectory } from '../../job-control/find-program.js';
import type { Job, JobsOptions } from 'bullmq';
import { z } from 'zod';
import type { JobSpec, JobState, JobSummary } from '../../../shared/model.js';
import { parseSpec } from '../../../shared/schemas.js';
import { COMMAND_SUMMARY_CHARS, TIMEOUT_MAX_SECONDS } from '../../../shared/limits.js';
import { oneLine } from '../../../shared/format.js';
import { commandLine } from '../store/job-rows.js';
import type { NewJob } from '../store/jobs.js';
import { isNamed } from './named-ids.js';

import { attemptsOf, clip, HISTORY_MAX } from './attempt-records.js';

export { attemptError, attemptsOf, withCutShort } from './attempt-records.js';

/** Every key Lanes writes in a Redis starts with this. */
export const PREFIX = 'lanes';

/** Finished jobs kept in Redis per lane (and for at most a week): enough to look back, bounded whatever runs. */
export const KEEP_SUCCEEDED = 2_000;
export const KEEP_FAILED = 5_000;
const KEEP_SECONDS = 7 * 86_400;
/** The data of a job whose record BullMQ could not read (bull-worker.ts): why. */
export const UNREADABLE = 'lanesUnreadable';
/** Lanes' own backoff (1 s doubling to 5 min), registered with each engine's BullMQ worker. */
export const BACKOFF_TYPE = 'lanes';

export interface StoredJob {
  name: string;
  data: { lanes: 1; spec: JobSpec; timeoutMs: number | null };
  opts: JobsOptions;
}

/**
 * Lanes' priority in BullMQ's own terms, so a job orders the same whichever client added it.
 * BullMQ takes its wait list (jobs without a priority, in order) before any prioritized job, and
 * among those priority 1 first. So 0, Lanes' default, is no priority: the job goes to the wait
 * list, where BullMQ's tools and KEDA's list scaler count the backlog. A negative priority runs
 * after every job without one: BullMQ priority −p (−1 → 1, before −100 → 100). A positive one runs
 * before them: the head of the wait list (BullMQ's lifo), the newest of several first.
 */
export function bullPriority(priority: number): Pick<JobsOptions, 'priority' | 'lifo'> {
  if (priority < 0) return { priority: -priority };
  return priority > 0 ? { lifo: true } : {};
}

/** Delay and priority through BullMQ's own: a delayed job waits in its delayed set. */
export function storedJob(j: NewJob): StoredJob {
  const now = Date.now();
  const delay = j.notBefore !== undefined && j.notBefore !== null && j.notBefore > now ? j.notBefore - now : 0;
  return {
    name: commandLine(j.spec),
    data: { lanes: 1, spec: j.spec, timeoutMs: j.timeoutMs },
    opts: {
      attempts: j.maxAttempts,
      ...bullPriority(j.priority ?? 0),
      ...(delay > 0 ? { delay } : {}),
      backoff: { type: BACKOFF_TYPE },
      removeOnComplete: { count: KEEP_SUCCEEDED, age: KEEP_SECONDS },
      removeOnFail: { count: KEEP_FAILED, age: KEEP_SECONDS },
      keepLogs: 1,
      stackTraceLimit: HISTORY_MAX,
    },
  };
}

/**
 * The job's data, as any BullMQ producer may write it (docs/shared-lanes.md, "The job's shape"):
 * `spec` is required, `lanes` (Lanes writes 1) and `timeoutMs` may be left out. Each refusal
 * names the field, so a producer's author knows what to change.
 */
const stored = z
  .object({
    lanes: z.literal(1, { error: 'must be 1 when given (the version of this shape)' }).optional(),
    spec: z.unknown().refine((v) => v !== undefined, 'is required: what to run ({kind: "argv", argv: [...]}, {kind: "shell", script}, or {kind: "payload", payload})'),
    timeoutMs: z
      .number({ error: 'must be a whole number of milliseconds, or null for no limit' })
      .int('must be a whole number of milliseconds, or null for no limit')
      .positive('must be at least 1 ms, or null for no limit')
      .max(TIMEOUT_MAX_SECONDS * 1000, `must be at most ${TIMEOUT_MAX_SECONDS * 1000} ms (${TIMEOUT_MAX_SECONDS / 86_400} days), or null for no limit`)
      .nullable()
      .optional(),
  })
  .strict();

/** The data as a job runs it, or the words naming what is wrong with it (every problem, field by field). */
export function checkData(data: unknown): { spec: unknown; timeoutMs: number | null } | { problem: string } {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return { problem: 'its data is not an object: give {spec: …} (docs/shared-lanes.md)' };
  const outer = stored.safeParse(data);
  if (!outer.success) {
    const words = outer.error.issues.map((i) => (i.code === 'unrecognized_keys' ? `data has an unknown field ${i.keys.map((k) => `"${k}"`).join(', ')}` : `data.${i.path.join('.')} ${i.message}`));
    return { problem: `its data is not in the shape Lanes runs: ${words.join('; ')}` };
  }
  return { spec: outer.data.spec, timeoutMs: outer.data.timeoutMs ?? null };
}

/** What a claimed job runs, checked; or why it cannot run here (it is failed with those words, never run). */
export function checkClaimed(data: unknown, persistentLane: boolean, machine: string): { spec: JobSpec; timeoutMs: number | null } | { problem: string; retry: boolean } {
  const unreadable = data && typeof data === 'object' ? (data as Record<string, unknown>)[UNREADABLE] : undefined;
  if (typeof unreadable === 'string') return { problem: `not a job Lanes can read: its record in Redis is not JSON (${unreadable})`, retry: false };
  const outer = checkData(data);
  if ('problem' in outer) return { problem: outer.problem, retry: false };
  // The one parse every spec gets, wherever it is loaded: a relative cwd is refused here as at the API.
  const parsed = parseSpec(outer.spec);
  if ('problem' in parsed) return { problem: `its data.spec is not one Lanes accepts: ${parsed.problem}`, retry: false };
  const spec = parsed.spec;
  if ((spec.kind === 'payload') !== persistentLane) {
    return { problem: persistentLane ? 'it is a command, and this lane runs payloads for a worker command' : 'it is a payload, and this lane runs commands', retry: false };
  }
  // An absolute directory another engine's machine has may not exist on this one, and another
  // engine may still run it.
  if (spec.kind !== 'payload' && spec.cwd !== undefined && !isDirectory(spec.cwd)) {
    return { problem: `its directory ${spec.cwd} does not exist on ${machine}`, retry: true };
  }
  return { spec, timeoutMs: outer.timeoutMs };
}


/**
 * What a job Lanes ran returns to its producer, as BullMQ's returnvalue: its Lanes id, its exit
 * code, the machine that ran it, and on a lane of a worker command the worker's answer. It is
 * also Lanes' mark: a completion without it was not recorded by a Lanes engine (finishedByLanes).
 */
export function returnValue(id: number, machine: string, result: unknown, persistentLane: boolean): object {
  return { lanes: 1, id, exitCode: 0, machine, ...(persistentLane ? { result: result ?? null } : {}) };
}

/** Whether a completion was recorded by a Lanes engine: its returnvalue carries Lanes' mark (the parsed value, or its JSON in the job's hash). */
export function finishedByLanes(returnvalue: unknown): boolean {
  if (typeof returnvalue === 'string') return returnvalue.startsWith('{"lanes":1,');
  return returnvalue !== null && typeof returnvalue === 'object' && (returnvalue as { lanes?: unknown }).lanes === 1;
}

/** What a worker answered, from Lanes' returnvalue; null from anyone else's. */
export function resultOf(returnvalue: unknown): unknown {
  return finishedByLanes(returnvalue) && typeof returnvalue === 'object' ? ((returnvalue as { result?: unknown }).result ?? null) : null;
}

/** Why a job completed by something that is not Lanes is shown failed. */
export function outsideWords(processedBy: unknown): string {
  const who = typeof processedBy === 'string' && MACHINE.test(processedBy) ? ` (it calls itself ${processedBy})` : '';
  return `finished outside Lanes: a BullMQ worker that is not a Lanes engine${who} took it and reported it done; no Lanes engine ran its command, so it is not counted as succeeded (\`lanes retry\` runs it)`;
}

/** Someone asked that the job not run: since when. */
export function cancelMark(progress: unknown): number | null {
  const at = progress && typeof progress === 'object' ? (progress as { cancel?: unknown }).cancel : undefined;
  return typeof at === 'number' && Number.isFinite(at) ? at : null;
}

/** BullMQ's word for where a job is. */
export type BullState = 'waiting' | 'wait' | 'prioritized' | 'paused' | 'delayed' | 'active' | 'completed' | 'failed' | 'waiting-children' | 'unknown';

/** The fields of a BullMQ job a summary is made of, read from a Job or from its hash. */
export interface BullFields {
  name: unknown;
  timestamp: unknown;
  processedOn: unknown;
  finishedOn: unknown;
  attemptsStarted: unknown;
  maxAttempts: unknown;
  failedReason: unknown;
  stacktrace: unknown;
  progress: unknown;
  processedBy: unknown;
  delay: unknown;
  /** BullMQ's returnvalue: Lanes' mark on a job it completed (finishedByLanes). */
  returnvalue?: unknown;
  /** BullMQ's id of the job, where it is known: shown beside Lanes' id when a producer named it. */
  bullId?: string;
}

const num = (v: unknown): number | null => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : null;
};
const MACHINE = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;

export function summaryOf(id: number, lane: string, state: BullState, f: BullFields): JobSummary {
  const history = attemptsOf(f.stacktrace);
  const last = history.at(-1);
  const cancelledAt = cancelMark(f.progress);
  // Completed by a worker that is not Lanes: nothing here ran it, so it did not succeed.
  const outside = state === 'completed' && !finishedByLanes(f.returnvalue);
  let lanesState: JobState;
  if (state === 'completed') lanesState = outside ? 'failed' : 'succeeded';
  else if (state === 'failed') lanesState = last?.outcome === 'cancelled' ? 'cancelled' : 'failed';
  else if (state === 'active') lanesState = 'running';
  else lanesState = cancelledAt !== null ? 'cancelled' : 'queued';
  const reason = typeof f.failedReason === 'string' && f.failedReason !== '' ? clip(f.failedReason) : null;
  const delay = num(f.delay) ?? 0;
  const finished = lanesState === 'succeeded' || lanesState === 'failed' || lanesState === 'cancelled';
  const machine = typeof f.processedBy === 'string' && MACHINE.test(f.processedBy) ? f.processedBy : undefined;
  return {
    id,
    lane,
    command: oneLine(typeof f.name === 'string' ? f.name : '', COMMAND_SUMMARY_CHARS),
    state: lanesState,
    attempts: Math.max(0, Math.trunc(num(f.attemptsStarted) ?? 0)),
    maxAttempts: Math.max(1, Math.trunc(num(f.maxAttempts) ?? 1)),
    createdAt: num(f.timestamp) ?? 0,
    startedAt: num(f.processedOn) || null,
    finishedAt: !finished ? null : lanesState === 'cancelled' && state !== 'failed' ? cancelledAt : num(f.finishedOn),
    exitCode: lanesState === 'succeeded' ? 0 : lanesState === 'failed' ? (last?.exitCode ?? null) : null,
    error: outside ? outsideWords(f.processedBy) : lanesState === 'cancelled' && state !== 'failed' ? 'cancelled before it ran' : lanesState === 'succeeded' ? null : reason,
    runAfter: state === 'delayed' && last ? last.finishedAt + delay : null,
    ...(machine !== undefined && !outside ? { machine } : {}),
    ...(f.bullId !== undefined && isNamed(f.bullId) ? { bullmqId: f.bullId } : {}),
  };
}

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
    returnvalue: job.returnvalue,
    ...(job.id !== undefined ? { bullId: job.id } : {}),
  };
}

/** Where BullMQ put a job it was told failed: for good, or back to wait out its backoff. */
export const afterFailure = (job: Job): BullState => (job.finishedOn ? 'failed' : job.delay > 0 ? 'delayed' : 'waiting');
