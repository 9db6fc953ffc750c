// The engine with its API, as one thing to start and stop. `lanes daemon` calls this, and so does
// the desktop app's main process, so both publish the same way: the owner's socket (in the data
// directory, or where socket-place.ts finds room for it), the window on 127.0.0.1 (on the same port as last time when it is free, so a window
// left open finds its engine again), and daemon.json saying where both are.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LanesError } from '../../shared/errors.js';
import { openEngine, type Engine, type EngineOptions } from '../engine/engine.js';
import { writePrivateFile } from '../paths/private-dir.js';
import { placeSocket, removeSocketDir } from '../paths/socket-place.js';
import { readDaemonInfo, removeDaemonInfo, removeOpenPage, writeDaemonInfo } from './daemon-info.js';
import { createApiServer, type ApiServer } from './server.js';
import { WindowAccess } from './window-access.js';
import { windowDir } from './window-files.js';

export interface HostOptions extends EngineOptions {
  /** The window's port; default: the one used last time if free, else any free one. */
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
  /** The window's token: minted at this start, kept in memory only. */
  token: string;
  /** Where the owner's programs reach the engine. */
  socket: string;
  /** Stops the API (and removes daemon.json), then the engine. Safe to call twice. */
  close(options?: { graceMs?: number }): Promise<void>;
}

/** The last window port, kept across runs (daemon.json goes when the engine stops). */
const PORT_FILE = 'window-port';

function lastPort(dataDir: string): number {
  try {
    const n = Number(readFileSync(join(dataDir, PORT_FILE), 'utf8').trim());
    return Number.isInteger(n) && n > 0 && n < 65_536 ? n : 0;
  } catch {
    return 0;
  }
}

export async function hostEngine(options: HostOptions): Promise<HostedEngine> {
  const { port: asked, rendererDir, bodyLimit, ...engineOptions } = options;
  // The engine first: it makes the data directory private and holds its lock, so a second daemon
  // is refused before it can take over the first one's socket or daemon.json.
  const engine = await openEngine(engineOptions);
  const access = new WindowAccess(() => removeOpenPage(engine.dataDir));
  const api = createApiServer({
    engine,
    access,
    rendererDir: rendererDir ?? windowDir,
    ...(bodyLimit !== undefined ? { bodyLimit } : {}),
    ...(engineOptions.log ? { log: engineOptions.log } : {}),
  });
  let socket = '';
  let port: number;
  try {
    port = await listenOnPort(api, asked, lastPort(engine.dataDir));
    // A folder made for the socket of an engine that died is left in the temporary directory.
    const before = readDaemonInfo(engine.dataDir);
    if (before) removeSocketDir(before.socket);
    socket = placeSocket(engine.dataDir, engineOptions.env ?? process.env).path;
    await api.listenSocket(socket);
    writePrivateFile(join(engine.dataDir, PORT_FILE), `${port}\n`);
    writeDaemonInfo(engine.dataDir, { port, pid: process.pid, url: `http://127.0.0.1:${port}/`, startedAt: engine.startedAt, socket });
  } catch (err) {
    // Fail closed: an engine nobody can reach, holding the lock, helps no one.
    await api.close();
    if (socket) removeSocketDir(socket);
    await engine.stop({ graceMs: 0 });
    throw err;
  }

  let closing: Promise<void> | null = null;
  return {
    engine,
    url: `http://127.0.0.1:${port}/#token=${access.token}`,
    port,
    token: access.token,
    socket,
    close(closeOptions = {}) {
      closing ??= (async () => {
        // Withdraw the address first so no client starts a request against an engine going away.
        removeDaemonInfo(engine.dataDir, process.pid);
        await api.close();
        removeSocketDir(socket);
        await engine.stop(closeOptions);
      })();
      return closing;
    },
  };
}

/** The port asked for (refused if busy), else last time's if free, else any free one. */
async function listenOnPort(api: ApiServer, asked: number | undefined, previous: number): Promise<number> {
  const busy = (err: unknown) => (err as NodeJS.ErrnoException).code === 'EADDRINUSE';
  if (asked !== undefined && asked !== 0) {
    try {
      return await api.listen(asked);
    } catch (err) {
      if (busy(err)) throw new LanesError('conflict', `port ${asked} is already in use; choose another with --port, or omit it for a free one`);
      throw err;
    }
  }
  if (previous !== 0 && asked === undefined) {
    try {
      return await api.listen(previous);
    } catch (err) {
      if (!busy(err)) throw err;
    }
  }
  return api.listen(0);
}
