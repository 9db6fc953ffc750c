// PLACEHOLDER — being written now. The interface below is the one to build against.
import type { RequestName, RequestOutput } from '../../shared/requests.js';
import type { Status } from '../../shared/model.js';
import type { EventHub } from './event-hub.js';
import type { WorkerLauncher } from './workers/launcher.js';

export interface EngineOptions {
  /** Directory holding lanes.db, logs/, the lock. Created if missing. */
  dataDir: string;
  /** Logical core count; default: LANES_CORES, else systeminformation. Ceiling = cores − 1, ≥ 1. */
  cores?: number;
  /** Sizer tick; default: LANES_TICK_MS, else 60 000. */
  tickMs?: number;
  /** How worker processes are started; default: forked Node children. */
  launcher?: WorkerLauncher;
  /** Absolute path of the worker runtime entry; default: dist/electron/worker/main.js. */
  workerEntry?: string;
  /** Where the engine writes its own diagnostics; default: stderr. */
  log?: (line: string) => void;
}

export interface Engine {
  readonly dataDir: string;
  readonly ceiling: number;
  readonly startedAt: number;
  readonly events: EventHub;
  /** Validates `input` against the shared contract, runs it; throws LanesError for bad input. */
  request<K extends RequestName>(name: K, input: unknown): Promise<RequestOutput<K>>;
  status(): Status;
  /** Stop taking work, let running jobs finish within `graceMs`, then stop workers. */
  stop(options?: { graceMs?: number }): Promise<void>;
}

export async function openEngine(_options: EngineOptions): Promise<Engine> {
  throw new Error('engine not built yet');
}
