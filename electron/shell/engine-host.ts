// Runs the engine and the local API inside the app: the same `hostEngine` that `lanes daemon`
// runs, so the CLI finds the app's API the same way it finds a daemon's. Keeps the shell state's
// status current from engine events, coalesced, so a burst of jobs is one tray rebuild.
import { hostEngine, type HostedEngine } from '../api/host.js';
import type { Engine, WorkerLauncher } from '../engine/index.js';
import { coalesce } from './coalesce.js';
import type { ShellStore } from './shell-state.js';

export interface EngineHost {
  /** The running engine, or null while starting, after a failure, or once stopped. */
  engine(): Engine | null;
  start(): Promise<void>;
  /** Stop the API and the engine; running jobs get `graceMs` to finish. */
  stop(graceMs: number): Promise<void>;
  /** Status changed now (resume from sleep, a cap set from the tray): refresh without waiting. */
  refresh(): void;
  /** Listen for the engine starting or going away (the IPC layer re-subscribes its windows). */
  onEngine(listener: (engine: Engine | null) => void): () => void;
}

/** A tray rebuild at most this often while events stream in. */
const STATUS_COALESCE_MS = 250;

export function createEngineHost(options: {
  dataDir: string;
  launcher: WorkerLauncher;
  store: ShellStore;
  log: (line: string) => void;
}): EngineHost {
  let hosted: HostedEngine | null = null;
  let starting: Promise<void> | null = null;
  let unsubscribe: (() => void) | null = null;
  const listeners = new Set<(engine: Engine | null) => void>();
  const announce = (engine: Engine | null) => {
    for (const listener of listeners) listener(engine);
  };

  const readStatus = coalesce(() => {
    if (hosted) options.store.set({ status: hosted.engine.status() });
  }, STATUS_COALESCE_MS);

  const start = async () => {
    options.store.set({ error: null, status: null });
    try {
      hosted = await hostEngine({ dataDir: options.dataDir, launcher: options.launcher, log: options.log });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      options.log(`engine: could not start: ${message}`);
      options.store.set({ error: message });
      return;
    }
    options.log(`engine: running, API at http://127.0.0.1:${hosted.port}/`);
    unsubscribe = hosted.engine.events.subscribe(() => readStatus.request());
    options.store.set({ status: hosted.engine.status() });
    announce(hosted.engine);
  };

  return {
    engine: () => hosted?.engine ?? null,
    start() {
      if (hosted) return Promise.resolve();
      starting ??= start().finally(() => {
        starting = null;
      });
      return starting;
    },
    async stop(graceMs) {
      await starting;
      const current = hosted;
      if (!current) return;
      // Keep reporting while draining: the tray counts down the running jobs.
      await current.close({ graceMs });
      readStatus.cancel();
      unsubscribe?.();
      hosted = null;
      announce(null);
    },
    refresh() {
      readStatus.request();
      readStatus.flush();
    },
    onEngine(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
