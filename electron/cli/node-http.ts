// The client's HTTP port under Node. A request with its answer is written and read over a plain
// socket: a CLI call makes one request, and node:http's first request in a process costs several
// times the round trip itself (about 10 ms on a 2-core machine, where the socket takes 3–5), while
// fetch() first loads undici and compiles its WASM parser (a quarter of a second). The event stream,
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

/** One request, `Connection: close`: the answer is whatever arrives before the engine closes. */
function sendOnce(endpoint: Endpoint, method: string, path: string, headers: Record<string, string>, body: string | undefined): Promise<HttpAnswer> {
  const payload = body === undefined ? undefined : Buffer.from(body, 'utf8');
  const head = { Host: hostOf(endpoint), Connection: 'close', ...headers, ...(payload ? { 'Content-Length': String(payload.length) } : {}) };
  const lines = [`${method} ${path} HTTP/1.1`, ...Object.entries(head).map(([k, v]) => `${k}: ${v}`)];
  // Nothing of ours puts a line break in a header, but a header is no place to find out.
  if (lines.some((l) => /[\r\n]/.test(l))) return Promise.reject(new LanesError('bad_request', 'a request header holds a line break'));
  return new Promise((resolve, reject) => {
    const socket = open(endpoint);
    const chunks: Buffer[] = [];
    socket.once('connect', () => socket.write(payload ? Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`), payload]) : `${lines.join('\r\n')}\r\n\r\n`));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.once('error', (error) => reject(unreachable(endpoint, error)));
    socket.once('end', () => {
      socket.destroy();
      const answer = parseAnswer(Buffer.concat(chunks));
      if (answer) resolve(answer);
      else reject(new LanesError('unavailable', `the engine at ${describe(endpoint)} closed the connection without a whole answer`));
    });
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
    send: (method, path, headers, body) => sendOnce(endpoint(), method, path, headers, body),
    async stream(path, headers, signal): Promise<HttpStream> {
      const res = await openStream(endpoint(), path, headers, signal);
      res.setEncoding('utf8');
      return { status: res.statusCode ?? 0, chunks: res as AsyncIterable<string>, text: () => readAll(res) };
    },
  };
}
