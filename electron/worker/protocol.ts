// The messages between the engine and one worker process. The worker holds nothing between
// jobs: it pulls a job, runs it, reports the outcome and pulls again. Everything it needs for a
// job comes in the `job` message; everything it learned goes back in `done`.
import type { JobSpec, JobState } from '../../shared/model.js';

export interface JobAssignment {
  id: number;
  attempt: number;
  spec: JobSpec;
  /** The most this run may take; at the limit it fails and its processes are ended. Null: no limit. */
  timeoutMs: number | null;
  /** Where this job's stdout and stderr go (capped, tail kept). */
  stdoutPath: string;
  stderrPath: string;
}

export type ToWorker =
  /** The next job, or none: then the worker waits for `wake`. */
  | { t: 'job'; job: JobAssignment | null }
  /** Work has arrived for an idle worker's lane. */
  | { t: 'wake' }
  /** Finish the current job (if any), then exit; take no new one. */
  | { t: 'drain' }
  /** Stop the running job: TERM its process group, KILL after `graceMs`. */
  | { t: 'cancel'; jobId: number; graceMs: number }
  | { t: 'ping'; n: number };

export type FromWorker =
  /** Started and ready; asks for a job. */
  | { t: 'pull' }
  /** The running job's process group, so the engine can end it if this worker dies. */
  | { t: 'spawned'; jobId: number; pgid: number }
  /** Outcome of a job, and (when `pull`) a request for the next one in the same breath. */
  | { t: 'done'; jobId: number; attempt: number; outcome: JobOutcome; pull: boolean }
  | { t: 'pong'; n: number };

export interface JobOutcome {
  state: Extract<JobState, 'succeeded' | 'failed' | 'cancelled'>;
  exitCode: number | null;
  error: string | null;
  result?: unknown;
}

/** A worker that exits with this code says its lane's worker command dies before it can answer. */
export const EXIT_COMMAND_WONT_START = 75;

/**
 * What a worker is told about its lane when it starts, through these environment variables. The
 * engine sets them; the worker reads them and keeps them from its jobs.
 */
export const WORKER_ENV = {
  lane: 'LANES_LANE',
  id: 'LANES_WORKER_ID',
  /** JSON argv of the persistent command, when the lane has one. */
  command: 'LANES_WORKER_COMMAND',
  /** Where that command runs. */
  cwd: 'LANES_WORKER_CWD',
  logCapBytes: 'LANES_LOG_CAP_BYTES',
  /** The engine's cgroup for jobs (Linux, when the OS lets it make one); see containment.ts. */
  cgroup: 'LANES_CGROUP',
} as const;
