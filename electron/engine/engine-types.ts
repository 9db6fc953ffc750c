// What embedders see of the engine (the desktop app, `lanes daemon`, the tests): the options it
// opens with and the Engine they get back. Apart from engine.ts so that the running engine
// (lanes-engine.ts) and its opening can both name them without importing each other.
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
  /** How often the machine is read; default LANES_SAMPLE_MS, else 15 000. */
  sampleMs?: number;
  /** Tests replace some of the machine's readers (fixtures for cgroups, memory). */
  machineReaders?: Partial<MachineReaders>;
  /** Sizer tick; default: LANES_TICK_MS, else 60 000. */
  tickMs?: number;
  /** How worker processes are started; default: forked Node children. */
  launcher?: WorkerLauncher;
  /** Absolute path of the worker runtime entry; default: dist/electron/worker/main.js. */
  workerEntry?: string;
  /** Where the engine writes its own diagnostics; default: stderr. */
  log?: (line: string) => void;
  /** How often workers are pinged; one silent for three pings is replaced. Default 5 000. */
  heartbeatMs?: number;
  /**
   * A lane whose jobs run shorter than this on average hands its workers the next jobs while they
   * run one. Default 25 ms; tests that need hands on a loaded machine set it higher.
   */
  handBelowMs?: number;
  /** Grace for a cancelled job between TERM and KILL. Default CANCEL_GRACE_MS (5 s). */
  cancelGraceMs?: number;
  /** Each job's stdout and stderr are kept to this many bytes (the tail). Default 1 MiB. */
  logCapBytes?: number;
  /**
   * Give each job a cgroup of its own where the OS lets the engine make one (Linux), so nothing a
   * job starts outlives it. Default true; tests turn it off to check the fallbacks.
   */
  cgroups?: boolean;
  /** How long finished jobs are kept, by final state (ms); default: LANES_KEEP, else 14 days succeeded, 30 failed or cancelled. */
  keep?: { succeeded: number; failed: number; cancelled: number };
  /** All kept jobs' logs together; default 1 GiB. */
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
  /** Stop taking work, let running jobs finish within `graceMs`, then stop workers. */
  stop(options?: { graceMs?: number }): Promise<void>;
}

/** A cancelled job's grace between TERM and KILL, unless the engine is told otherwise. */
export const CANCEL_GRACE_MS = 5_000;

/** Where the engine writes its own diagnostics unless told otherwise. */
export const defaultLog = (line: string) => process.stderr.write(`lanes: ${line}\n`);
