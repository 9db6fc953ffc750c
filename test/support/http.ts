// Raw HTTP for API tests. node:http rather than the client, because these tests must send headers
// a browser's fetch never would (a foreign Host), bodies no client would (broken JSON, 9 MiB), and
// read the event stream's frames as they are on the wire (with the one SSE parser).
import { request, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll } from 'vitest';
import { join } from 'node:path';
import { hostEngine, type HostedEngine } from '../../electron/api/host.js';
import type { LanesClient } from '../../shared/client/client.js';
import { SseParser, type SseMessage } from '../../shared/client/sse.js';
import type { LanesEvent } from '../../shared/events.js';
import { ensureBuilt, httpClient, tempDataDir } from './daemon.js';
import { quietMachine } from './machine.js';

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

/** An engine with its API in this process, built first; raw calls for it, and the client. */
export async function startHostedApi(dataDir: string): Promise<{ host: HostedEngine; call: ReturnType<typeof api>; client: LanesClient }> {
  await ensureBuilt();
  const host = await hostEngine({ machineReaders: quietMachine(), dataDir, cores: 3, tickMs: 100, log: () => {} });
  return { host, call: api(host.port, host.token), client: httpClient(host.port, host.token) };
}

export interface RawStream {
  response: IncomingMessage;
  messages: SseMessage[];
  /** Everything received, comments included. */
  text(): string;
  /** Resolves with the first message (already received or still to come) that `match` accepts; rejects after `timeoutMs`. */
  next(match: (m: SseMessage) => boolean, timeoutMs?: number): Promise<SseMessage>;
  /** The LanesEvents received so far, in order (not `start` or `reset`). */
  events(): LanesEvent[];
  close(): void;
}

/** The event stream as it is on the wire. */
export function openRawStream(port: number, options: { path?: string; headers?: Record<string, string> } = {}): Promise<RawStream> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: options.path ?? '/api/events', headers: options.headers ?? {} }, (response) => {
      const parser = new SseParser();
      const messages: SseMessage[] = [];
      const waiters = new Set<(m: SseMessage) => void>();
      let all = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        all += chunk;
        for (const m of parser.push(chunk)) {
          messages.push(m);
          for (const w of [...waiters]) w(m);
        }
      });
      resolve({
        response,
        messages,
        text: () => all,
        next: (match, timeoutMs = 30_000) =>
          new Promise((found, fail) => {
            const hit = messages.find(match);
            if (hit) return found(hit);
            const timer = setTimeout(() => (waiters.delete(check), fail(new Error(`no matching message on the event stream within ${timeoutMs} ms`))), timeoutMs);
            const check = (m: SseMessage) => {
              if (!match(m)) return;
              clearTimeout(timer);
              waiters.delete(check);
              found(m);
            };
            waiters.add(check);
            response.on('close', () => (clearTimeout(timer), fail(new Error('event stream closed before the awaited event'))));
          }),
        events: () => messages.filter((m) => m.event !== 'start' && m.event !== 'reset').map((m) => JSON.parse(m.data) as LanesEvent),
        close: () => req.destroy(),
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * An engine with its API for every test of the block it is called in: started before them in a
 * folder of its own (the data directory is `dir/data`), closed and removed after them.
 */
export function hostedApiForAll(): { readonly host: HostedEngine; readonly call: ReturnType<typeof api>; readonly client: LanesClient; readonly dir: string } {
  const tmp = tempDataDir();
  let hosted: Awaited<ReturnType<typeof startHostedApi>> | undefined;
  beforeAll(async () => {
    hosted = await startHostedApi(join(tmp.dir, 'data'));
  });
  afterAll(async () => {
    await hosted?.host.close({ graceMs: 0 });
    tmp.remove();
  });
  return {
    get host() {
      return hosted!.host;
    },
    get call() {
      return hosted!.call;
    },
    get client() {
      return hosted!.client;
    },
    get dir() {
      return tmp.dir;
    },
  };
}
