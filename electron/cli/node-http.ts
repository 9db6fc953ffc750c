// The client's HTTP port under Node. A request with its answer is written and read over a plain
// socket, kept open for the next one: a CLI call makes one request, and node:http's first request
// in a process costs several times the round trip itself (about 10 ms on a 2-core machine, where
// the socket takes 3–5), while fetch() first loads undici and compiles its WASM parser. The event stream,
// which needs a real HTTP client (chunked framing, aborts), is node:http, loaded when first used.
import { connect, type Socket } from 'node:net';
import type { IncomingMessage } from 'node:http';
import { LanesError } from '../../shared/errors.js';
import type { HttpAnswer, HttpPort, HttpStream } from '../../shared/client/http.js';

/** Where the engine listens: a TCP port on loopback, or a Unix socket / named pipe. */
export type Endpoint = { host: string; port: number } | { socketPath: string };

const describe = (e: Endpoint) => ('socketPath' in e ? e.socketPath : `${e.host}:${e.port}`);
/** What the API's Host check accepts: over a socket any name will do; over TCP, its own address. */
const hostOf = (e: Endpoint) => ('socketPath' in e ? 'localhost' : `${e.host}:${e.port}`);

function unreachable(endpoint: Endpoint, error: Error): LanesError {
  return new LanesError('unavailable', `nothing answers at ${describe(endpoint)} (${(error as NodeJS.ErrnoException).code ?? error.message})`);
}

/** An HTTP/1.1 response as the engine's node:http server writes it: Content-Length or chunked. */
export function parseAnswer(raw: Buffer): HttpAnswer | null {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const [statusLine = '', ...lines] = raw.subarray(0, end).toString('latin1').split('\r\n');
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
  if (!status) return null;
  const headers = new Map(lines.map((l) => [l.slice(0, l.indexOf(':')).trim().toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  let body = raw.subarray(end + 4);
  if (/chunked/i.test(headers.get('transfer-encoding') ?? '')) {
    const parts: Buffer[] = [];
    for (let at = 0; ; ) {
      const lineEnd = body.indexOf('\r\n', at);
      const size = lineEnd < 0 ? NaN : parseInt(body.subarray(at, lineEnd).toString('latin1'), 16);
      if (!Number.isFinite(size)) return null;
      if (size === 0) break;
      parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
      at = lineEnd + 2 + size + 2;
    }
    body = Buffer.concat(parts);
  } else if (headers.has('content-length')) {
    const length = Number(headers.get('content-length'));
    if (body.length < length) return null;
    body = body.subarray(0, length);
  }
  return { status: Number(status[1]), text: body.toString('utf8') };
}

function open(endpoint: Endpoint): Socket {
  return 'socketPath' in endpoint ? connect(endpoint.socketPath) : connect(endpoint.port, endpoint.host);
}

/**
 * Connections kept open between requests, per endpoint: a long-lived client (the tray, a script,
 * the tests) pays for a connection once, not per request. An idle one does not keep the process
 * alive, and is let go before the engine's own idle limit (5 s) would close it under a request.
 */
const IDLE_MS = 4_000;
const idle = new Map<string, Socket[]>();

function reuse(endpoint: Endpoint): Socket | undefined {
  const socket = idle.get(describe(endpoint))?.pop();
  if (!socket) return undefined;
  socket.removeAllListeners();
  socket.setTimeout(0);
  socket.ref();
  return socket;
}

function keep(endpoint: Endpoint, socket: Socket): void {
  socket.removeAllListeners();
  socket.unref();
  const list = idle.get(describe(endpoint)) ?? [];
  idle.set(describe(endpoint), list);
  list.push(socket);
  const drop = () => {
    const at = list.indexOf(socket);
    if (at >= 0) list.splice(at, 1);
    socket.destroy();
  };
  socket.once('close', drop).once('error', drop).once('end', drop);
  socket.setTimeout(IDLE_MS, drop);
}

/**
 * One request on a kept connection, or a new one. The answer ends where its Content-Length says;
 * one without (or one that closes the connection) is read to the end and the connection let go.
 * A kept connection the engine closed before answering a single byte is replaced once: the
 * request never reached it.
 */
function send(endpoint: Endpoint, method: string, path: string, headers: Record<string, string>, body: string | undefined, retried = false): Promise<HttpAnswer> {
  const payload = body === undefined ? undefined : Buffer.from(body, 'utf8');
  const head = { Host: hostOf(endpoint), Connection: 'keep-alive', ...headers, ...(payload ? { 'Content-Length': String(payload.length) } : {}) };
  const lines = [`${method} ${path} HTTP/1.1`, ...Object.entries(head).map(([k, v]) => `${k}: ${v}`)];
  // Nothing of ours puts a line break in a header, but a header is no place to find out.
  if (lines.some((l) => /[\r\n]/.test(l))) return Promise.reject(new LanesError('bad_request', 'a request header holds a line break'));
  const request = payload ? Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`), payload]) : `${lines.join('\r\n')}\r\n\r\n`;
  const kept = retried ? undefined : reuse(endpoint);
  const socket = kept ?? open(endpoint);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const settle = (closing: boolean) => {
      const raw = Buffer.concat(chunks);
      const answer = parseAnswer(raw);
      if (!answer) {
        if (!closing) return;
        if (kept && received === 0) return resolve(send(endpoint, method, path, headers, body, true));
        return reject(new LanesError('unavailable', `the engine at ${describe(endpoint)} closed the connection without a whole answer`));
      }
      const head = raw.subarray(0, raw.indexOf('\r\n\r\n')).toString('latin1');
      // A length or chunks say where the answer ends; without either it ends with the connection.
      const framed = /\r\n(content-length:|transfer-encoding: *chunked)/i.test(head);
      const closes = /\r\nconnection: *close/i.test(head);
      if (!closing && !framed) return;
      if (!closing && framed && !closes) keep(endpoint, socket);
      else socket.destroy();
      resolve(answer);
    };
    socket.on('data', (chunk: Buffer) => {
      received += chunk.length;
      chunks.push(chunk);
      settle(false);
    });
    socket.once('error', (error) => {
      if (kept && received === 0) return resolve(send(endpoint, method, path, headers, body, true));
      reject(unreachable(endpoint, error));
    });
    socket.once('end', () => settle(true));
    if (kept) socket.write(request);
    else socket.once('connect', () => socket.write(request));
  });
}

async function openStream(endpoint: Endpoint, path: string, headers: Record<string, string>, signal: AbortSignal): Promise<IncomingMessage> {
  const { request } = await import('node:http');
  return new Promise((resolve, reject) => {
    const req = request({ ...endpoint, method: 'GET', path, headers, signal }, resolve);
    req.on('error', (error) => reject(error.name === 'AbortError' ? error : unreachable(endpoint, error)));
    req.end();
  });
}

async function readAll(res: IncomingMessage): Promise<string> {
  res.setEncoding('utf8');
  let text = '';
  for await (const chunk of res as AsyncIterable<string>) text += chunk;
  return text;
}

export function nodeHttpPort(endpoint: () => Endpoint): HttpPort {
  return {
    send: (method, path, headers, body) => send(endpoint(), method, path, headers, body),
    async stream(path, headers, signal): Promise<HttpStream> {
      const res = await openStream(endpoint(), path, headers, signal);
      res.setEncoding('utf8');
      return { status: res.statusCode ?? 0, chunks: res as AsyncIterable<string>, text: () => readAll(res) };
    },
  };
}
