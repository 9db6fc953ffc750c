// The messages between the engine and one worker process. The worker holds no state the store
// does not have: it pulls jobs, runs them one at a time, reports each outcome and pulls again.
// Under a deep backlog it is handed a few jobs at once, so it goes from one to the next without
// waiting on the engine; the engine records each as started when the report says so.
import type { JobState } from '../../shared/model.js';
import type { ProgressReport } from '../../shared/progress.js';

export interface JobAssignment {
  id: number;
  attempt: number;
  /** What it runs, as the JSON the store keeps: parsed by the worker, not by the engine on its busiest path. */
  specJson: string;
  /** The most this run may take; at the limit it fails and its processes are ended. Null: no limit. */
  timeoutMs: number | null;
  /** Where this job's stdout and stderr go (capped, tail kept), both together, and the three joined when it ends. */
  stdoutPath: string;
  stderrPath: string;
  allPath: string;
  joinedPath: string;
}

export type ToWorker =
  /**
   * Jobs to run, in order, each when the one before has ended. `firstStarted`: the engine has
   * already recorded the first as started here (it answered an idle worker). The others are in
   * hand: the worker says when it goes on to one (`done.next`, or `started` when it was idle),
   * and the engine records it then. None: wait for `wake`.
   */
  | { t: 'jobs'; jobs: JobAssignment[]; firstStarted: boolean }
  /** Work has arrived for an idle worker's lane. */
  | { t: 'wake' }
  /** Finish the current job (if any), then exit; start none of those in hand. */
  | { t: 'drain' }
  /** Told to drain, then kept (the pause it was drained for ended): after the current job, ask for more. */
  | { t: 'stay' }
  /** Stop the running job (TERM its process group, KILL after `graceMs`), or drop one in hand. */
  | { t: 'cancel'; jobId: number; graceMs: number }
  | { t: 'ping'; n: number };

export type FromWorker =
  /** Started and ready; asks for a job. */
  | { t: 'pull' }
  /** The running job's process group, so the engine can end it if this worker dies. */
  | { t: 'spawned'; jobId: number; pgid: number }
  /**
   * Outcome of a job. `next`: the job in hand it goes on to now. `pull`: its hand is empty and it
   * asks for more in the same breath (with `next`, to have them ready when that one ends).
   * `returned`: the jobs in hand it gives back unrun, because this one ran longer than a hand is
   * meant to last (`WORKER_ENV.handBackMs`): the lane's jobs are not short, and another worker
   * may take them.
   */
  | { t: 'done'; jobId: number; attempt: number; outcome: JobOutcome; pull: boolean; next?: { jobId: number; attempt: number }; returned?: number[] }
  /** It went on to a job in hand while idle (its answer came after it had finished the last). */
  | { t: 'started'; jobId: number; attempt: number }
  /**
   * How far the running job says it has got: the latest of its reports, at most one message per
   * PROGRESS_SEND_MS. `ignored`: its reports not read since the last message (not progress, or
   * for another job): counted, never a failure.
   */
  | { t: 'progress'; jobId: number; attempt: number; progress: ProgressReport; ignored: number }
  /** A job in hand it was told to cancel before it started it: that job will not run here. */
  | { t: 'dropped'; jobId: number }
  | { t: 'pong'; n: number };

export interface JobOutcome {
  state: Extract<JobState, 'succeeded' | 'failed' | 'cancelled'>;
  exitCode: number | null;
  error: string | null;
  result?: unknown;
  /** It first waited this long for the worker's command to load (the command said when it had). */
  loadMs?: number;
  /** How long it ran here, from being handed to its process or command to its outcome: what decides jobs in hand. */
  ranMs?: number;
  /** A failure no retry would mend (the worker refused the payload itself, `"retry": false`): failed for good at once. */
  final?: boolean;
}

/** A worker sends the engine at most one progress message per this many ms per job; reports between are folded into it. */
export const PROGRESS_SEND_MS = 100;

/**
 * What a shell job is told so `lanes progress` can reach its worker: the worker's socket, and
 * the run's own token (a process left over from an earlier job cannot speak for this one).
 */
export const PROGRESS_ENV = {
  socket: 'LANES_PROGRESS_SOCKET',
  token: 'LANES_PROGRESS_TOKEN',
} as const;

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
  /** A job that ran at least this long (ms) sends the rest of the worker's hand back with its report. */
  handBackMs: 'LANES_HAND_BACK_MS',
  /** The umask (octal) the engine's user had: the engine runs under 077, its jobs under theirs. */
  umask: 'LANES_UMASK',
} as const;
