// Runs the engine and the local API inside the app: the same `hostEngine` that `lanes daemon`
// runs, so the CLI finds the app's API the same way it finds a daemon's. Keeps the shell state's
// status current from engine events, coalesced, so a burst of jobs is one tray rebuild: that is
// the one way the tray learns of a change, whoever made it (the tray, the window, the CLI).
import { hostEngine, type HostedEngine } from '../api/host.js';
import { inProcessTransport, type Engine, type WorkerLauncher } from '../engine/index.js';
import { LanesClient } from '../../shared/client/client.js';
import { coalesce } from './coalesce.js';
import type { ShellStore } from './shell-state.js';
import type { DesktopSignals } from '../engine/machine/facts.js';

export interface EngineHost {
  /** The running engine, or null while starting, after a failure, or once stopped. */
  engine(): Engine | null;
  /** The shared client over the running engine (in-process), or null when there is none. */
  client(): LanesClient | null;
  start(): Promise<void>;
  /** Stop the API and the engine; running jobs get `graceMs` to finish. */
  stop(graceMs: number): Promise<void>;
  /**
   * Read the status now instead of at the end of the coalescing window. For waking from sleep:
   * time jumped (rates, waits and nudges moved) but no event says so.
   */
  refresh(): void;
  /** Listen for the engine starting or going away (the IPC layer re-attaches its windows). */
  onEngine(listener: (engine: Engine | null) => void): () => void;
}

/** A tray rebuild at most this often while events stream in. */
const STATUS_COALESCE_MS = 250;

export function createEngineHost(options: {
  dataDir: string;
  launcher: WorkerLauncher;
  /** powerMonitor, adapted (desktop-signals.ts): the sizer sees the battery and the person at the machine. */
  desktop?: DesktopSignals;
  store: ShellStore;
  log: (line: string) => void;
}): EngineHost {
  let hosted: { api: HostedEngine; client: LanesClient; unsubscribe: () => void } | null = null;
  let starting: Promise<void> | null = null;
  const listeners = new Set<(engine: Engine | null) => void>();
  const announce = (engine: Engine | null) => {
    for (const listener of listeners) listener(engine);
  };

  // Read directly, not through a request: the engine refuses requests while it drains, and the
  // tray counts the running jobs down during exactly that time.
  const readStatus = coalesce(() => {
    if (hosted) options.store.set({ status: hosted.api.engine.status() });
  }, STATUS_COALESCE_MS);

  const start = async () => {
    options.store.set({ error: null, status: null });
    let api: HostedEngine;
    try {
      api = await hostEngine({ dataDir: options.dataDir, launcher: options.launcher, log: options.log, desktop: options.desktop });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      options.log(`engine: could not start: ${message}`);
      options.store.set({ error: message });
      return;
    }
    options.log(`engine: running, API at http://127.0.0.1:${api.port}/`);
    const unsubscribe = api.engine.events.subscribe(() => readStatus.request());
    hosted = { api, client: new LanesClient(inProcessTransport(api.engine)), unsubscribe };
    options.store.set({ status: api.engine.status() });
    announce(api.engine);
  };

  return {
    engine: () => hosted?.api.engine ?? null,
    client: () => hosted?.client ?? null,
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
      await current.api.close({ graceMs });
      readStatus.cancel();
      current.unsubscribe();
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
