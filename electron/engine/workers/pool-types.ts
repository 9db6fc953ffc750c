// What the pool keeps about each worker, and what it needs from the engine and is told to do.
import type { JobSummary, ScaleReason } from '../../../shared/model.js';
import type { ProgressReport } from '../../../shared/progress.js';
import type { WorkerLauncher, WorkerProcess } from './launcher.js';
import type { LogPaths } from '../../job-control/log-paths.js';

export interface JobRef {
  id: number;
  attempt: number;
}

/** The job a worker runs. */
export interface RunningJob extends JobRef {
  /** When this worker took it on (ms); the machine's critical stop picks the newest. */
  since: number;
  /** Its lane: a worker that changed lanes may still be finishing the last job of its old one. */
  lane: string;
}

/** How a lane's live workers count: one still starting is idle; draining or stopping is leaving. */
export interface WorkerCounts {
  idle: number;
  busy: number;
  leaving: number;
}

export type WorkerState = 'starting' | 'idle' | 'busy' | 'draining' | 'stopping';

/** How the sizer counts a worker: one still starting is as good as idle; draining or stopping is leaving. */
export type WorkerRole = 'idle' | 'busy' | 'leaving';
export const roleOf = (state: WorkerState): WorkerRole =>
  state === 'busy' ? 'busy' : state === 'idle' || state === 'starting' ? 'idle' : 'leaving';

export interface PersistentCommand {
  argv: string[];
  cwd: string | null;
}

export interface WorkerRecord {
  id: string;
  lane: string;
  proc: WorkerProcess;
  state: WorkerState;
  /** The job it runs, as the store has it recorded. */
  job: RunningJob | null;
  /** Jobs in its hand, in the order it will run them: still queued in the store. */
  hand: JobRef[];
  /** The lane it goes on to at the end of its current job (a shell worker changing lanes). */
  moveTo?: string;
  /** Told to leave after its job: why, for the ledger row written when it actually goes. */
  leaving?: { reason: ScaleReason; detail: string };
  /**
   * Stopped while idle: the stop's own ledger row counted it out, so while it exits it is no longer
   * one of its lane's from/to (a later row counting it again would say 2 → 1 twice).
   */
  countedOut?: boolean;
  /** Told to leave, then to stay: if it had finished before it heard, it exits as asked first. */
  kept?: boolean;
  /** Process groups this worker started; ended if the worker dies. */
  pgids: Set<number>;
  lastHeard: number;
  /** Runs a persistent command, whose process group lives as long as the worker does. */
  persistent: boolean;
  /** Set when the engine killed it for a reason of its own, with the terms its job goes back on. */
  killed?: Kill;
  /** The GPU it was given as it started (nvidia-smi's index), if it was given one. */
  card?: number;
}

/**
 * Why the engine ends a worker, as the one who decided says it: the ledger's reason and words,
 * and whether its job did nothing wrong (then it runs again at once, its attempt given back).
 */
export interface Kill {
  reason: ScaleReason;
  detail: string;
  refund?: boolean;
}

/** The GPU a new worker is given (the sizing pass chooses it): nvidia-smi's index, and the uuid CUDA is told. */
export interface GivenCard {
  index: number;
  uuid: string;
}

export interface PoolHooks {
  now(): number;
  /** The lane's persistent command and where it runs, if it has one. */
  workerCommand(lane: string): PersistentCommand | null;
  logPaths(jobId: number): LogPaths;
  jobChanged(job: JobSummary): void;
  /** Something the sizer observes moved: a worker went idle, started, or exited. */
  fleetChanged(): void;
  /** A job of the lane waited `ms` for its worker's command to load. */
  loaded(lane: string, ms: number): void;
  /** A running job said how far it has got: its own worker, its own run. */
  progressed(report: ProgressHeard): void;
  /** A worker told to leave after its job has gone: the ledger counts it out now. */
  workerLeft(worker: WorkerRecord, why: { reason: ScaleReason; detail: string }): void;
  /** A worker ended without being asked to; `atStart`: before it was ready to work (or its command could not start). */
  workerLost(worker: WorkerRecord, reason: ScaleReason, detail: string, atStart: boolean): void;
  log(line: string): void;
}

/** A running job's report as its worker relayed it (shared/progress.ts read it). */
export interface ProgressHeard {
  jobId: number;
  attempt: number;
  lane: string;
  progress: ProgressReport;
  /** Its reports not read since the last one heard. */
  ignored: number;
}

export interface PoolOptions {
  entry: string;
  launcher: WorkerLauncher;
  logCapBytes: number;
  /** A stopping worker that has not exited by then is killed. */
  stopTimeoutMs: number;
  /** The engine's cgroup for jobs, or null where the OS offers none (containment.ts). */
  cgroupBase: string | null;
  /** Added to every worker's environment, and so to its jobs' (LANES_MACHINE). */
  jobEnv: Record<string, string>;
  /** Jobs shorter than this on average get jobs in hand (hands.ts). */
  handBelowMs: number;
}
