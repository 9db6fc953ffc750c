// Finding this person's engine and talking to it: daemon.json says where it listens, the token
// file holds the secret. The engine may restart on another port while a long `lanes wait` runs,
// so the CLI's transport looks again whenever the engine it knew stops answering.
import { LanesClient } from '../../shared/client/client.js';
import { httpTransport } from '../../shared/client/http.js';
import type { Transport } from '../../shared/client/transport.js';
import { LanesError } from '../../shared/errors.js';
import { processAlive, readDaemonInfo, readToken, type DaemonInfo } from '../api/daemon-info.js';
import { nodeHttpPort } from './node-http.js';

export interface Connection {
  dataDir: string;
  info: DaemonInfo;
  token: string;
}

export function noEngine(dataDir: string, why: string): LanesError {
  return new LanesError(
    'unavailable',
    `no Lanes engine is running for ${dataDir} (${why}).\n` +
      'Start one with `lanes daemon` (add --data-dir if you use another directory), or open the Lanes desktop app.',
  );
}

/** Reads daemon.json and the token; refuses early when the engine they name is plainly gone. */
export function locateEngine(dataDir: string): Connection {
  const info = readDaemonInfo(dataDir);
  if (!info) throw noEngine(dataDir, 'no daemon.json there');
  if (!processAlive(info.pid)) throw noEngine(dataDir, `daemon.json names process ${info.pid}, which has exited`);
  const token = readToken(dataDir);
  if (!token) throw noEngine(dataDir, 'its token file is missing or unreadable');
  return { dataDir, info, token };
}

function tryLocate(dataDir: string): Connection | null {
  try {
    return locateEngine(dataDir);
  } catch {
    return null;
  }
}

const unavailable = (error: unknown) => error instanceof LanesError && error.code === 'unavailable';

/** A client of the engine for `dataDir`, and the connection it is using right now. */
export function connect(dataDir: string): { client: LanesClient; connection: () => Connection } {
  let conn = locateEngine(dataDir);
  const http = httpTransport(
    nodeHttpPort(() => ({ host: '127.0.0.1', port: conn.info.port })),
    () => ({ Authorization: `Bearer ${conn.token}` }),
  );
  const relocated = (): boolean => {
    const fresh = tryLocate(dataDir);
    if (!fresh || (fresh.info.port === conn.info.port && fresh.info.pid === conn.info.pid)) return false;
    conn = fresh;
    return true;
  };
  const transport: Transport = {
    async request(name, input) {
      try {
        return await http.request(name, input);
      } catch (error) {
        if (!unavailable(error)) throw error;
        if (!relocated()) throw noEngine(dataDir, `nothing answers on port ${conn.info.port}`);
        return http.request(name, input);
      }
    },
    listen(since, sink) {
      relocated();
      return http.listen(since, sink);
    },
  };
  return { client: new LanesClient(transport), connection: () => conn };
}
