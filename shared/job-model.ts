// The nouns of a job every process agrees on: its states, what it runs, its summary and full
// record, and what is kept of it once cleaned. Part of the one contract (model.ts re-exports it);
// plain data only, so the renderer can import it as it is.

export type JobState = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
export const JOB_STATES: readonly JobState[] = ['queued', 'running', 'succeeded', 'failed', 'cancelled'];
export const FINISHED_STATES: readonly JobState[] = ['succeeded', 'failed', 'cancelled'];

/** How a job says what to run. */
export type JobSpec =
  | { kind: 'argv'; argv: string[]; cwd?: string; env?: Record<string, string> }
  | { kind: 'shell'; script: string; cwd?: string; env?: Record<string, string> }
  | { kind: 'payload'; payload: unknown };

/**
 * A job as lists and events carry it: everything a list shows, and nothing that can be large
 * (the full spec, the answer), so a page of a thousand jobs stays small whatever they run.
 */
export interface JobSummary {
  id: number;
  lane: string;
  /** What it runs, in one line of at most 200 characters. */
  command: string;
  state: JobState;
  attempts: number;
  maxAttempts: number;
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  exitCode: number | null;
  /** Why it failed or was cancelled, in words (signal, timeout, worker died …). */
  error: string | null;
  /** A failed attempt's retry waits until then (backoff); null when it may run as soon as there is room. */
  runAfter: number | null;
  /** Shared lanes only: the machine whose engine ran (or runs) it, as that engine names itself. */
  machine?: string;
  /** Shared lanes only: the id its producer gave it in BullMQ (`jobId`), where that is not BullMQ's own number. */
  bullmqId?: string;
  /** Runs before older jobs of its lane with a lower one (−100 … 100); absent: 0. */
  priority?: number;
  /** Absent: none. */
  labels?: string[];
  /** Queued and not runnable before then (`--delay`, `--at`); absent once due. */
  notBefore?: number;
  /** Queued and waiting for this many jobs it runs after to succeed; absent: none. */
  waitingFor?: number;
  /** The finished job this one runs again (`lanes restart`). */
  restartOf?: number;
  /** How far it said it has got in its latest run (shared/progress.ts); absent: it has said nothing, or it is queued. */
  progress?: JobProgress;
  /**
   * Failed without running: the job it runs after that could not succeed (failed, was cancelled,
   * or went). Stored when the engine failed it, so a worker's own error that reads like "job 3
   * failed" is never taken for it. Absent: not blocked.
   */
  blockedBy?: number;
}

/** What a job said of how far it has got (docs/worker-protocol.md "Progress"). */
export interface JobProgress {
  /** 0 … 1. */
  fraction: number;
  /** "12,000 of 40,000": the count it gave, when it gave one. */
  done?: number;
  total?: number;
  /** A few words of its own (at most 200 characters). */
  message?: string;
  /** When it said so (ms since the epoch). */
  at: number;
  /** Reports of this run that were not read (not progress, or not for this run): counted, never a failure. */
  ignored?: number;
}

/**
 * Another job, as a job's detail names it: what it waits for, what waits for it. A job it ran
 * after that has been cleaned is named by what its record keeps: how it ended and `cleanedAt`,
 * with no `command` (not kept, so not given).
 */
export interface JobLink {
  id: number;
  state: JobState;
  command?: string;
  /** Present once that job was cleaned (its compact record's moment; null: a shared queue dropped it). */
  cleanedAt?: number | null;
}

/** An attempt that did not succeed, kept with its own error. */
export interface AttemptRecord {
  attempt: number;
  startedAt: number | null;
  finishedAt: number;
  /** `interrupted`: its worker or the engine went away mid-run. */
  outcome: 'failed' | 'cancelled' | 'interrupted';
  exitCode: number | null;
  error: string | null;
  /** Shared lanes: the machine it ran on, where known. */
  machine?: string;
}

/** A job in full: its detail. */
export interface Job extends JobSummary {
  /** It waited this long for its worker's command to load before it could start (a persistent lane's first job); null: it did not. */
  loadMs: number | null;
  spec: JobSpec;
  /** For persistent-worker lanes: what the worker answered. */
  result: unknown;
  /** The most one run may take; null: no limit. */
  timeoutMs: number | null;
  /** The attempts that did not succeed, oldest first. */
  history: AttemptRecord[];
  /** The jobs it runs after (`--after`); absent where the store keeps none (a shared lane). */
  after?: JobLink[];
  /** The jobs that run after it. */
  dependents?: JobLink[];
  /** The jobs that run it again (`lanes restart`). */
  restartedAs?: number[];
  /** Its logs were removed to keep all logs within their total bound (docs/retention.md). */
  logsTrimmed?: boolean;
}

/**
 * What is left of a finished job once it was cleaned (by retention or `lanes clean`): how it
 * ended, when it finished, when it was cleaned — and nothing more, since nothing more is kept.
 * The one shape of a cleaned job everywhere: `cleanedJob`, the `cleaned` of the not_found error
 * that `job`, `logTail`, `retry`, `restartJobs`, `cancel` and `editJob` answer for it, and
 * `lanes wait --json`, `show --json`. Shared lanes' jobs this engine saw finish are kept the
 * same way, since BullMQ drops their records after 2,000 newer successes (`cleanedAt` null: not
 * removed by this engine).
 */
export interface CleanedJob {
  id: number;
  lane: string;
  state: 'succeeded' | 'failed' | 'cancelled';
  exitCode: number | null;
  finishedAt: number | null;
  cleanedAt: number | null;
}

/** A job as `lanes wait` reports it: as it is, or, once cleaned, what is kept of it. */
export type FinishedJob = JobSummary | CleanedJob;

/** Whether this is what is kept of a cleaned job (only that shape has `cleanedAt`). */
export const isCleaned = (job: FinishedJob): job is CleanedJob => 'cleanedAt' in job;

/** The summary within a full record, as a list or an event would carry it. */
export function summaryOf(job: JobSummary): JobSummary {
  const { id, lane, command, state, attempts, maxAttempts, createdAt, startedAt, finishedAt, exitCode, error, runAfter, machine, bullmqId, priority, labels, notBefore, waitingFor, restartOf, progress, blockedBy } = job;
  const extra = { machine, bullmqId, priority, labels, notBefore, waitingFor, restartOf, progress, blockedBy };
  for (const k of Object.keys(extra) as (keyof typeof extra)[]) if (extra[k] === undefined) delete extra[k];
  return { id, lane, command, state, attempts, maxAttempts, createdAt, startedAt, finishedAt, exitCode, error, runAfter, ...extra };
}
