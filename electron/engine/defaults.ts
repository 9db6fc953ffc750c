// What the engine does when its embedder says nothing: every default of EngineOptions, and the
// engine's own timings that no option sets, stated once (as BullMQ states a worker's options).
// The parts that take one of these are handed it resolved; none keeps a default of its own.
import { LOG_CAP_BYTES, LOGS_TOTAL_MAX_BYTES } from '../../shared/limits.js';

export const ENGINE_DEFAULTS = {
  /** The sizer's tick (LANES_TICK_MS overrides it): a pass at least this often while work is held. */
  tickMs: 60_000,
  /** How often the machine is read (LANES_SAMPLE_MS overrides it). */
  sampleMs: 15_000,
  /** How often workers are pinged; one silent for three pings is replaced. */
  heartbeatMs: 5_000,
  /** A lane whose jobs run shorter than this on average hands its workers the next jobs while they run one. */
  handBelowMs: 25,
  /** A cancelled job's grace between TERM and KILL. */
  cancelGraceMs: 5_000,
  /** How long an engine that is told to stop lets running jobs finish, unless told otherwise. */
  stopGraceMs: 10_000,
  /** How long a worker told to stop has before it is killed. */
  workerStopMs: 5_000,
  /** nvidia-smi answers in well under a second; a call that takes this long is stuck, and is killed with all it started. */
  gpuTimeoutMs: 5_000,
  /** How long the last good reading of the GPUs stands while reads fail; no ml lane grows on it meanwhile. */
  gpuKeepMs: 10 * 60_000,
  /** Each job's stdout and stderr are kept to this many bytes (the tail). */
  logCapBytes: LOG_CAP_BYTES,
  /** All kept jobs' logs together. */
  logsMaxBytes: LOGS_TOTAL_MAX_BYTES,
} as const;

export type EngineDefaults = { -readonly [K in keyof typeof ENGINE_DEFAULTS]: number };
