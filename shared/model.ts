// The nouns every process agrees on: the engine produces them, the API and IPC carry them,
// the CLI prints them and the window draws them. Plain data only — no classes, no Node types —
// so the renderer can import this file as it is.

export type LaneClass = 'cpu' | 'ml';

import type { JobProgress, JobSummary } from './job-model.js';

// A job's nouns have their own file; they are part of this contract all the same.
export { JOB_STATES, FINISHED_STATES, isCleaned, summaryOf } from './job-model.js';
export type { JobState, JobSpec, JobSummary, JobProgress, JobLink, AttemptRecord, Job, CleanedJob, FinishedJob } from './job-model.js';

/** The nudge: only present when raising the cap would help right now. */
export interface Nudge {
  text: string;
  waiting: number;
  busy: number;
  ceiling: number;
  /** A cap that would clear the backlog in reasonable time (not automatically the ceiling). */
  suggestedCap: number;
  /** About how long the backlog takes at the current cap, and at the suggested one; null until there is a pace. */
  estimate: { atCapMs: number; atSuggestedMs: number } | null;
}

/** Why a lane's nudge rests: the person lowered the cap, snoozed it, or dismissed it. */
export type NudgeRestWhy = 'cap' | 'snooze' | 'dismiss';

/** A nudge that would speak now but rests because a person quieted it (shared/nudge-rest.ts words it). */
export interface NudgeRest {
  until: number;
  /** Null: quieted by an older Lanes that kept no reason. */
  why: NudgeRestWhy | null;
  /** It speaks again sooner once this many wait. */
  speaksAt: number;
}

/**
 * Words for what a lane is doing, derived, never stored. `held`: work waits and the machine
 * (memory, battery, the person at it), not the cap, keeps it from running more.
 */
export type LaneMood = 'off' | 'paused' | 'idle' | 'working' | 'saturated' | 'sharing' | 'held';

/** What a person sets of a lane, as it is stored (the store's lane row adds what the engine keeps). */
export interface LaneSettings {
  name: string;
  class: LaneClass;
  cap: number;
  /** Persistent worker command (argv), or null for shell lanes. */
  workerCommand: string[] | null;
  /** Where the persistent worker command runs; null: the home directory. */
  workerCwd: string | null;
  /** The most one of its jobs may run, unless the job says otherwise; null: no limit. */
  timeoutMs: number | null;
}

export interface LaneStatus extends LaneSettings {
  /** Live worker processes, including those draining. */
  workers: number;
  busy: number;
  idle: number;
  draining: number;
  /** Queued and ready to run. */
  waiting: number;
  /** Queued retries waiting for their moment (backoff); not counted in `waiting`. */
  delayed: number;
  /** Queued jobs waiting for other jobs to succeed (`--after`); not counted in `waiting` nor in the estimate. */
  waitingForJobs: number;
  /** Queued jobs scheduled for later (`--delay`, `--at`); not counted in `waiting` nor in the estimate until due. */
  scheduled: number;
  /** When the first of those is due; null when none is scheduled. */
  scheduledNext: number | null;
  running: number;
  succeeded: number;
  /** Jobs that ran and failed; a dependent that never ran is in `blocked`, not here. */
  failed: number;
  /** Dependents that never ran: a job they run after failed or was cancelled (absent from older engines). */
  blocked?: number;
  cancelled: number;
  /**
   * Jobs finished per minute, live: over the last 30 s (over the time since it began, when that is
   * shorter), so it follows a cap change within seconds and falls to 0 when nothing finishes.
   */
  throughputPerMin: number;
  /** How many finished in the window that pace is over: below PACE_AFTER_JOBS it is one job's luck, not a pace. Absent from older engines. */
  finishedLately?: number;
  /** Median ms from queued to started, over recently started jobs; null when none. */
  medianWaitMs: number | null;
  /** Since when the job waiting longest could run — queued, its time come, or the jobs it runs after done (its wait grows as you look); null when none waits. */
  oldestQueuedAt: number | null;
  /**
   * About how long until what it holds is done: never less than its running jobs' typical time
   * allows (docs/sizer.md "The estimate"); null unless `etaState` is `known`.
   */
  etaMs: number | null;
  /** `known`; `estimating` (no run finished yet, or one runs far past them); `paused` (no estimate while paused); `off` (cap 0, nothing running: nothing will move); `none` (nothing left). */
  etaState: EtaState;
  /** How long its worker command took to load, last time one did (persistent lanes); null: not known. */
  workerLoadMs: number | null;
  /** The nudge is quiet until then (a lowered cap, a snooze or a dismissal), unless the backlog grows materially. */
  nudgeQuietUntil: number | null;
  /** Present while a nudge that would speak now rests because a person quieted it: until when, why. */
  nudgeRest?: NudgeRest;
  mood: LaneMood;
  nudge: Nudge | null;
  /** Its worker command keeps dying as it starts: no new worker before this moment. Null: none held back. */
  startsBlockedUntil: number | null;
  /** What one of its workers typically holds in memory, with all it runs (bytes); null until measured. */
  workerMemoryBytes: number | null;
  /** An ml lane's: what one of its workers typically holds on the GPU (bytes), measured; absent until it is. */
  workerGpuBytes?: number;
  /** When the machine, not its cap, holds it back: how many workers it may run now, and why. Null: only its cap. */
  limit: LaneLimit | null;
  /** Present when the lane's queue is shared on Redis with other engines (docs/shared-lanes.md). */
  shared?: SharedLaneStatus;
  /** Present while this lane is paused by itself (`pause` with `lane`): since when, until when (null: until resumed). All work paused is `Status.paused`. */
  paused?: Paused;
  /** Its longest-running job that says how far it has got, and what it said; absent: none does. */
  longestJob?: { id: number; startedAt: number; progress: JobProgress };
}

/** A shared lane's queue as this engine sees it. Counts in LaneStatus are the shared queue's; workers are this machine's. */
export interface SharedLaneStatus {
  /** Where the queue lives, without its password. */
  redis: string;
  /** Since when Redis cannot be reached (no new job is taken meanwhile); null while it can. */
  unreachableSince: number | null;
  /** Reached, but not answering (a stopped server, a network that drops what is sent) since `unreachableSince`. */
  notAnswering: boolean;
  /** Why, in the words of the connection, while it cannot. */
  error: string | null;
  /** Workers other engines of the lane run now, and on how many machines. */
  elsewhere: { workers: number; machines: number };
  /**
   * A worker that is not Lanes (a plain BullMQ Worker) was seen on the lane's queue in the last
   * ten minutes: it took a job (seen within 5 s) or completed one (seen at once). What it
   * completes is shown failed, "finished outside Lanes". Absent or null: none seen.
   */
  outsideWorker?: { seenAt: number; jobId: number | null; how: 'took' | 'completed' } | null;
}

/** Why Lanes runs fewer workers than it could: the machine's limit that binds. */
export type LimitReason = 'cores' | 'container' | 'memory' | 'gpu' | 'battery' | 'in-use' | 'load';

export interface LaneLimit {
  workers: number;
  by: LimitReason;
  /** In words: "memory for 3 of these, about 410 MB each", "the GPU has memory for 3 of these workers, about 6.3 GB each". */
  text: string;
}

/** One GPU as last read (nvidia-smi), while an ml lane held work or workers. */
export interface GpuStatus {
  index: number;
  name: string;
  totalBytes: number;
  /** In use by everything on it, Lanes' workers included. */
  usedBytes: number;
  /** Of that, held by Lanes' workers. */
  heldByLanesBytes: number;
  /** What Lanes' ml workers may hold on it between them (LANES_GPU_MEMORY, or what is free less a reserve). */
  forWorkersBytes: number;
}

/** The machine as the sizer sees it now. */
export interface MachineStatus {
  /** Logical cores (or LANES_CORES). */
  cores: number;
  /** What the cores (or the container's CPU quota) allow alone: one kept free. */
  coreCeiling: number;
  /** Bytes Lanes' workers may use between them now (LANES_MEMORY, or a share of what is free). */
  memoryBytes: number;
  power: 'ac' | 'battery' | 'unknown';
  /** Someone is using the computer; null where nobody can tell (a headless daemon). */
  personActive: boolean | null;
  /** The effective ceiling: the lowest of the limits. */
  ceiling: number;
  limitedBy: LimitReason;
  /** In words: "quiet: on battery". */
  text: string;
  /**
   * Where the GPUs' memory is known from: 'nvidia' (nvidia-smi on PATH: `gpus` lists the cards),
   * 'unified' (Apple silicon: it is the memory above, which the memory limit divides already),
   * 'unknown' (no nvidia-smi: GPU memory limits nothing). Absent from engines before it.
   */
  gpuMemory?: 'nvidia' | 'unified' | 'unknown';
  /** With gpuMemory 'nvidia': each card as last read; empty until an ml lane first holds work. */
  gpus?: GpuStatus[];
  /**
   * The last read of the GPUs failed, and why. The last good reading (`gpus`, read at
   * `gpuReadAt`) stands for a while, but no ml lane grows until a read succeeds.
   */
  gpuError?: string;
  /** When the cards were last read (ms since the epoch); absent before the first reading. */
  gpuReadAt?: number;
}

/**
 * An answer that describes state carries the seq of the last event it reflects, so whoever holds
 * it applies only the events after that, and none from before can undo it.
 */
export interface Snapshot {
  seq: number;
}

/** All work held for a while: running jobs finish, nothing new starts, caps are untouched. */
export interface Paused {
  since: number;
  /** When it ends by itself; null: when someone resumes. */
  until: number | null;
}

export interface Status extends Snapshot {
  /** The most workers all lanes together may run now (machine.ceiling). */
  ceiling: number;
  machine: MachineStatus;
  /** Held by a person; null when not. */
  paused: Paused | null;
  /** Worker processes alive across all lanes. */
  workersInUse: number;
  dataDir: string;
  pid: number;
  startedAt: number;
  version: string;
  lanes: LaneStatus[];
}

/** Whether a lane's estimate is given, and if not, why (LaneStatus.etaState). */
export type EtaState = 'known' | 'estimating' | 'paused' | 'off' | 'none';

/**
 * Why a lane's workers changed. `turn`: a shell worker went on to another lane (no process stopped
 * or started); `pause`: all work paused; `start`: the engine started (lane `*`: the engine as a
 * whole); `machine`: the machine's limits (memory, battery, the person at it, other programs' load)
 * moved, or memory ran critically low.
 */
export type ScaleReason = 'demand' | 'idle' | 'cap' | 'budget' | 'turn' | 'pause' | 'machine' | 'crash' | 'unresponsive' | 'shutdown' | 'start' | 'outage';

export interface ScaleEvent {
  id: number;
  at: number;
  lane: string;
  from: number;
  to: number;
  reason: ScaleReason;
  detail: string;
}

export interface JobPage extends Snapshot {
  jobs: JobSummary[];
  /** Total matching the lane and state (maintained counts, not a table scan); with a text search, of those searched through. */
  total: number;
  /** Newest first: pass as `beforeId` for the next (older) page; null at the end. */
  nextBeforeId: number | null;
  /** Oldest first: pass as `afterId` for the next (newer) page; null at the end. */
  nextAfterId: number | null;
}

export interface LogChunk {
  jobId: number;
  stream: 'stdout' | 'stderr' | 'all';
  /** Byte offset of `text` in the file. */
  offset: number;
  /** Offset to ask from next time. */
  nextOffset: number;
  text: string;
  /** Bytes dropped from the head to keep the log within its size cap. */
  truncated: boolean;
}

export interface TimelinePoint {
  at: number;
  workers: number;
  busy: number;
  waiting: number;
  /** The lane's cap then: the chart draws it as a line. */
  cap: number;
}

export interface LaneTimeline {
  lane: string;
  points: TimelinePoint[];
}
