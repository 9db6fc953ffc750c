// The client's HTTP port under Node: plain node:http, which starts in a few milliseconds where
// fetch() first loads undici and compiles its WASM parser (a quarter of a second a CLI call).
import { request, type IncomingMessage, type RequestOptions } from 'node:http';
import { LanesError } from '../../shared/errors.js';
import type { HttpAnswer, HttpPort, HttpStream } from '../../shared/client/http.js';

/** Where the engine listens: a TCP port on loopback, or a Unix socket / named pipe. */
export type Endpoint = { host: string; port: number } | { socketPath: string };

const describe = (e: Endpoint) => ('socketPath' in e ? e.socketPath : `${e.host}:${e.port}`);

function unreachable(endpoint: Endpoint, error: Error): LanesError {
  return new LanesError('unavailable', `nothing answers at ${describe(endpoint)} (${(error as NodeJS.ErrnoException).code ?? error.message})`);
}

function open(endpoint: Endpoint, options: RequestOptions, body: string | undefined, signal?: AbortSignal): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = request({ ...endpoint, ...options, ...(signal ? { signal } : {}) }, resolve);
    req.on('error', (error) => reject(error.name === 'AbortError' ? error : unreachable(endpoint, error)));
    req.end(body);
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
    async send(method, path, headers, body): Promise<HttpAnswer> {
      // An explicit length: node sends a DELETE body unframed otherwise.
      const length: Record<string, string> = body === undefined ? {} : { 'Content-Length': String(Buffer.byteLength(body)) };
      const res = await open(endpoint(), { method, path, headers: { ...headers, ...length } }, body);
      return { status: res.statusCode ?? 0, text: await readAll(res) };
    },
    async stream(path, headers, signal): Promise<HttpStream> {
      const res = await open(endpoint(), { method: 'GET', path, headers }, undefined, signal);
      res.setEncoding('utf8');
      return { status: res.statusCode ?? 0, chunks: res as AsyncIterable<string>, text: () => readAll(res) };
    },
  };
}
