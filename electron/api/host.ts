// The engine with its API, as one thing to start and stop. `lanes daemon` calls this, and so
// will the desktop app's main process, so both publish the same files in the same way.
import { mkdirSync } from 'node:fs';
import { openEngine, type Engine, type EngineOptions } from '../engine/engine.js';
import { LanesError } from '../../shared/errors.js';
import { ensureToken, removeDaemonInfo, writeDaemonInfo } from './daemon-info.js';
import { windowDir } from './window-files.js';
import { createApiServer, type ApiServer } from './server.js';

export interface HostOptions extends EngineOptions {
  /** 0 or omitted: a free port chosen by the OS. */
  port?: number;
  /** The built window to serve at `/`; default: this package's dist/renderer. */
  rendererDir?: string;
  /** Largest accepted request body in bytes; default 8 MiB. */
  bodyLimit?: number;
}

export interface HostedEngine {
  engine: Engine;
  /** The window's address with its token: `http://127.0.0.1:PORT/#token=…`. */
  url: string;
  port: number;
  token: string;
  /** Stops the API (and removes daemon.json), then the engine. Safe to call twice. */
  close(options?: { graceMs?: number }): Promise<void>;
}

export async function hostEngine(options: HostOptions): Promise<HostedEngine> {
  const { port: wanted = 0, rendererDir, bodyLimit, ...engineOptions } = options;
  // Private from the start: the token and the job logs live here.
  mkdirSync(engineOptions.dataDir, { recursive: true, mode: 0o700 });
  // The engine first: it holds the data directory's lock, so a second daemon is refused before
  // it can overwrite the first one's daemon.json.
  const engine = await openEngine(engineOptions);
  let published: { api: ApiServer; port: number; token: string };
  try {
    published = await publish(engine, wanted, rendererDir, bodyLimit, engineOptions.log);
  } catch (err) {
    // Fail closed: an engine nobody can reach, holding the lock, helps no one.
    await engine.stop({ graceMs: 0 });
    throw err;
  }
  const { api, port, token } = published;
  const base = `http://127.0.0.1:${port}/`;

  let closing: Promise<void> | null = null;
  return {
    engine,
    url: `${base}#token=${token}`,
    port,
    token,
    close(closeOptions = {}) {
      closing ??= (async () => {
        // Withdraw the address first so no CLI starts a request against an engine going away.
        removeDaemonInfo(engine.dataDir, process.pid);
        await api.close();
        await engine.stop(closeOptions);
      })();
      return closing;
    },
  };
}

/** Token, server, then daemon.json — in that order, so the address never names a dead port. */
async function publish(engine: Engine, wanted: number, rendererDir: string | undefined, bodyLimit: number | undefined, log: ((line: string) => void) | undefined) {
  const token = ensureToken(engine.dataDir);
  const api = createApiServer({
    engine,
    token,
    rendererDir: rendererDir ?? windowDir,
    ...(bodyLimit !== undefined ? { bodyLimit } : {}),
    ...(log ? { log } : {}),
  });
  let port: number;
  try {
    port = await api.listen(wanted);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new LanesError('conflict', `port ${wanted} is already in use; choose another with --port, or omit it for a free one`);
    }
    throw err;
  }
  try {
    writeDaemonInfo(engine.dataDir, { port, pid: process.pid, url: `http://127.0.0.1:${port}/`, startedAt: engine.startedAt });
  } catch (err) {
    await api.close();
    throw err;
  }
  return { api, port, token };
}
