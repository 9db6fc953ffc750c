// The shapes the durable queue takes in and hands out: new jobs and edits, a worker's reports of
// a turn and what the store made of them, why a run was interrupted, and what waits to run.
import type { JobSpec, JobState, JobSummary } from '../../../shared/model.js';

/** How a run ended, as the store records it (whoever ran it says so in this shape). */
export interface RunOutcome {
  state: Extract<JobState, 'succeeded' | 'failed' | 'cancelled'>;
  exitCode: number | null;
  error: string | null;
  /** What a persistent worker answered, already checked against the answer limits. */
  result?: unknown;
  /** It first waited this long for its worker's command to load. */
  loadMs?: number;
  /** Failed for good whatever attempts are left: the worker said no retry would do better. */
  final?: boolean;
}

/** A job handed to a worker: what it runs, and how long it may take. */
export interface ClaimedJob extends JobSummary {
  /** What it runs, as stored: the worker parses it. */
  specJson: string;
  timeoutMs: number | null;
}

export interface NewJob {
  lane: string;
  spec: JobSpec;
  maxAttempts: number;
  timeoutMs: number | null;
  /** Within its lane, higher runs first (default 0). */
  priority?: number;
  /** Not runnable before then; null or absent: at once. */
  notBefore?: number | null;
  /** Runnable only once these have succeeded (local lanes). */
  after?: number[];
  labels?: string[];
  /** The finished job it runs again. */
  restartOf?: number;
}

/** A queued job's runnable part, as an edit leaves it (the handler fills in what it keeps). */
export interface JobEdit {
  spec: JobSpec;
  maxAttempts: number;
  timeoutMs: number | null;
  priority: number;
  notBefore: number | null;
  /** Replaces what it runs after; undefined: unchanged. */
  after?: number[];
  labels: string[];
}

/** What ending jobs meant for the jobs that run after them, once committed. */
export interface Settled {
  /** Dependents failed because a job they run after failed or was cancelled. */
  failed: JobSummary[];
  /** Lanes where a job became runnable (its last dependency succeeded, or its time came). */
  runnable: Set<string>;
}

/** A worker's word that its run of a job ended, and when a failed run may be tried again. */
export interface Report {
  jobId: number;
  worker: string;
  attempt: number;
  outcome: RunOutcome;
  retryAt: number | null;
}

/** One worker's message of a turn, as the store records it. */
export interface Turn {
  /** The outcome it reports. */
  done: Report | null;
  /** A job in its hand it has gone on to: recorded as started now. */
  started: { id: number; worker: string } | null;
  /** A job in its hand it dropped unstarted, because it was cancelled. */
  dropped: number | null;
  /** It asks for work: when idle the first is recorded as started; up to `hand` more to hold. */
  pull: { lane: string; worker: string; claimFirst: boolean; hand: number } | null;
}

export interface TurnResult {
  finished: JobSummary | null;
  started: ClaimedJob | null;
  dropped: JobSummary | null;
  claimed: ClaimedJob | null;
  /** Jobs for its hand: still queued; `attempts` is the attempt they will be. */
  handed: ClaimedJob[];
  /** Jobs it would have claimed whose stored spec fails the parse: failed at once, never run. */
  rejected: JobSummary[];
}

/** Jobs chosen for one chunk of a bulk change: these ids, or the next of a lane's. */
export type ChunkSelect = { ids: number[] } | { lane: string };

/** One chunk of a bulk retry: the jobs queued again, how many were refused (job-changes/bulk.ts), and a lane's cursor (null: done). */
export interface RetriedChunk {
  jobs: JobSummary[];
  refused: number;
  next: number | null;
}

/** A lane's queued jobs that cannot run yet, and the soonest moment one can by time alone (null: none by time). */
export interface NotYet {
  n: number;
  next: number | null;
  /** Of those, waiting for other jobs to succeed. */
  afterJobs?: number;
  /** Of those, waiting only for their time, and when the first is due. */
  scheduled?: number;
  scheduledNext?: number | null;
}

/** Why a run did not finish, and whether it costs the job an attempt and a wait. */
export interface Interruption {
  why: string;
  /** An orderly stop of the engine is not the job's fault: the attempt is given back. */
  refund?: boolean;
  /** When a job that still has attempts may run again (backoff); null: at once. */
  retryAt: number | null;
}
