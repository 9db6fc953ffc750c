// The CLI's API client: one generic `call(name, input)` derived from the shared request table,
// so every command is typed by the contract and none hand-builds a route.
import type { LanesErrorBody, RequestInput, RequestName, RequestOutput } from '../../shared/requests.js';
import { httpTarget } from '../../shared/http.js';
import { processAlive, readDaemonInfo, readToken, type DaemonInfo } from '../api/daemon-info.js';
import { NoEngine, RequestRefused } from './errors.js';

export interface Connection {
  dataDir: string;
  info: DaemonInfo;
  token: string;
  /** `http://127.0.0.1:PORT` without a trailing slash. */
  base: string;
}

/** Reads daemon.json and the token; refuses early when the engine they name is plainly gone. */
export function locateEngine(dataDir: string): Connection {
  const info = readDaemonInfo(dataDir);
  if (!info) throw new NoEngine(dataDir, 'no daemon.json there');
  if (!processAlive(info.pid)) throw new NoEngine(dataDir, `daemon.json names process ${info.pid}, which has exited`);
  const token = readToken(dataDir);
  if (!token) throw new NoEngine(dataDir, 'its token file is missing or unreadable');
  return { dataDir, info, token, base: `http://127.0.0.1:${info.port}` };
}

function isConnectionError(err: unknown): boolean {
  const cause = (err as { cause?: { code?: string } }).cause;
  return ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET'].includes(cause?.code ?? '');
}

export class LanesHttpClient {
  constructor(public connection: Connection) {}

  async call<K extends RequestName>(name: K, input: RequestInput<K>): Promise<RequestOutput<K>> {
    let res: Response;
    try {
      res = await this.send(name, input);
    } catch (err) {
      if (!isConnectionError(err)) throw err;
      // The engine may have restarted on another port (a long `lanes wait` outlives it):
      // look again, and try once more if the data directory now names a different engine.
      const fresh = (() => {
        try {
          return locateEngine(this.connection.dataDir);
        } catch {
          return null;
        }
      })();
      if (!fresh || fresh.base === this.connection.base) {
        throw new NoEngine(this.connection.dataDir, `nothing answers on port ${this.connection.info.port}`);
      }
      this.connection = fresh;
      res = await this.send(name, input);
    }
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new RequestRefused(res.status, { code: 'internal', message: `the engine answered ${res.status} with something other than JSON` });
    }
    if (!res.ok) {
      const body = parsed as Partial<LanesErrorBody>;
      throw new RequestRefused(res.status, body.error ?? { code: 'internal', message: `the engine answered ${res.status}` });
    }
    return parsed as RequestOutput<K>;
  }

  private send<K extends RequestName>(name: K, input: RequestInput<K>): Promise<Response> {
    const target = httpTarget(name, input);
    return fetch(this.connection.base + target.url, {
      method: target.method,
      headers: {
        Authorization: `Bearer ${this.connection.token}`,
        ...(target.body ? { 'Content-Type': 'application/json' } : {}),
      },
      ...(target.body ? { body: JSON.stringify(target.body) } : {}),
    });
  }
}

export function connect(dataDir: string): LanesHttpClient {
  return new LanesHttpClient(locateEngine(dataDir));
}
