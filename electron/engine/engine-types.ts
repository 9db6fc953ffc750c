// What embedders see of the engine (the desktop app, `lanes daemon`, the tests): the options it
// opens with and the Engine they get back. Apart from engine.ts so that the running engine
// (lanes-engine.ts) and its parts (engine-parts.ts) can name them without importing each other.
import type { RequestName, RequestOutput } from '../../shared/requests.js';
import type { Status } from '../../shared/model.js';
import type { DesktopSignals } from './machine/facts.js';
import type { MachineReaders } from './machine/watcher.js';
import type { EventHub } from './event-hub.js';
import type { WorkerLauncher } from './workers/launcher.js';

export interface EngineOptions {
  /** Directory holding lanes.db, logs/, the lock. Created if missing. */
  dataDir: string;
  /** Logical core count; default: LANES_CORES, else systeminformation. Ceiling = cores − 1, ≥ 1, lower when the machine's limits say so. */
  cores?: number;
  /** The desktop's powerMonitor, adapted (the shell passes it); none under `lanes daemon`. */
  desktop?: DesktopSignals | null;
  /** Where the machine's facts come from (LANES_MEMORY, LANES_POWER…); default process.env. */
  env?: NodeJS.ProcessEnv;
  /** How often the machine is read; default LANES_SAMPLE_MS, else ENGINE_DEFAULTS (defaults.ts, where every default is). */
  sampleMs?: number;
  /** How long one call of nvidia-smi may take before it is killed with all it started; default ENGINE_DEFAULTS. */
  gpuTimeoutMs?: number;
  /** Tests replace some of the machine's readers (fixtures for cgroups, memory). */
  machineReaders?: Partial<MachineReaders>;
  /** Sizer tick; default: LANES_TICK_MS, else ENGINE_DEFAULTS. */
  tickMs?: number;
  /** How worker processes are started; default: forked Node children. */
  launcher?: WorkerLauncher;
  /** Absolute path of the worker runtime entry; default: dist/electron/worker/main.js. */
  workerEntry?: string;
  /** Where the engine writes its own diagnostics; default: stderr. */
  log?: (line: string) => void;
  /** How often workers are pinged; one silent for three pings is replaced. */
  heartbeatMs?: number;
  /**
   * A lane whose jobs run shorter than this on average hands its workers the next jobs while they
   * run one. Tests that need hands on a loaded machine set it higher.
   */
  handBelowMs?: number;
  /** Grace for a cancelled job between TERM and KILL. */
  cancelGraceMs?: number;
  /** Each job's stdout and stderr are kept to this many bytes (the tail). */
  logCapBytes?: number;
  /**
   * Give each job a cgroup of its own where the OS lets the engine make one (Linux), so nothing a
   * job starts outlives it. Default true; tests turn it off to check the fallbacks.
   */
  cgroups?: boolean;
  /** How long finished jobs are kept, by final state (ms); default: LANES_KEEP, else 14 days succeeded, 30 failed or cancelled. */
  keep?: { succeeded: number; failed: number; cancelled: number };
  /** All kept jobs' logs together. */
  logsMaxBytes?: number;
}

export interface Engine {
  readonly dataDir: string;
  /** The most workers all lanes together may run now. */
  readonly ceiling: number;
  readonly startedAt: number;
  readonly events: EventHub;
  /** Validates `input` against the contract's schema, runs it; throws LanesError for bad input. */
  request<K extends RequestName>(name: K, input: unknown): Promise<RequestOutput<K>>;
  status(): Status;
  /** Stop taking work, let running jobs finish within `graceMs` (default ENGINE_DEFAULTS.stopGraceMs), then stop workers. */
  stop(options?: { graceMs?: number }): Promise<void>;
}

/** Where the engine writes its own diagnostics unless told otherwise. */
export const defaultLog = (line: string) => process.stderr.write(`lanes: ${line}\n`);
