// Raw HTTP for API tests. node:http rather than fetch, because these tests must send headers a
// browser's fetch never would (a foreign Host) and bodies no client would (broken JSON, 9 MiB).
import { request } from 'node:http';
import { hostEngine, type HostedEngine } from '../../electron/api/host.js';
import { ensureBuilt } from './daemon.js';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The body parsed as JSON, or undefined if it is not JSON. */
  json: unknown;
}

export interface RawRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export function raw(port: number, req: RawRequest): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    // An explicit length: node sends DELETE bodies unframed otherwise.
    const length = req.body === undefined ? {} : { 'Content-Length': String(Buffer.byteLength(req.body)) };
    const headers = { ...length, ...req.headers };
    const r = request({ host: '127.0.0.1', port, method: req.method ?? 'GET', path: req.path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    r.on('error', reject);
    if (req.body !== undefined) r.write(req.body);
    r.end();
  });
}

/** A client bound to one server and token, for the common case of a well-formed call. */
export function api(port: number, token: string) {
  const auth = { Authorization: `Bearer ${token}` };
  return {
    get: (path: string, headers: Record<string, string> = {}) => raw(port, { path, headers: { ...auth, ...headers } }),
    post: (path: string, body: unknown, headers: Record<string, string> = {}) =>
      raw(port, {
        method: 'POST',
        path,
        headers: { ...auth, 'Content-Type': 'application/json', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    del: (path: string) => raw(port, { method: 'DELETE', path, headers: auth }),
  };
}

/** An engine with its API in this process, built first, and a client for it. */
export async function startHostedApi(dataDir: string): Promise<{ host: HostedEngine; call: ReturnType<typeof api> }> {
  await ensureBuilt();
  const host = await hostEngine({ dataDir, cores: 3, tickMs: 100, log: () => {} });
  return { host, call: api(host.port, host.token) };
}
