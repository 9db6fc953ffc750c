// The engine's local HTTP API: one `node:http` server (a framework would add a dependency and
// hide the checks this file exists to make obvious). Order of business for every request:
// who is asking (Host, Origin, token) → which request → its input → the engine → JSON out.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import { EVENTS_PATH } from '../../shared/client/http.js';
import { HTTP_STATUS, LanesError, type ErrorBody, type ErrorCode } from '../../shared/errors.js';
import type { Engine } from '../engine/engine.js';
import { BodyError, DEFAULT_BODY_LIMIT, readJsonBody } from './body.js';
import { EventStreams, resumePoint } from './event-stream.js';
import { checkSite, checkToken } from './guard.js';
import { assembleInput, matchRoute } from './router.js';
import { windowResponse } from './window-files.js';

export interface ApiServerOptions {
  engine: Engine;
  token: string;
  rendererDir: string;
  bodyLimit?: number;
  heartbeatMs?: number;
  log?: (line: string) => void;
}

export interface ApiServer {
  readonly server: Server;
  listen(port: number): Promise<number>;
  close(): Promise<void>;
}

function sendJson(res: ServerResponse, status: number, value: unknown, extra: Record<string, string> = {}): void {
  const text = JSON.stringify(value);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    ...extra,
  });
  res.end(text);
}

function sendError(res: ServerResponse, status: number, code: ErrorCode, message: string, field?: string, extra: Record<string, string> = {}): void {
  const error: ErrorBody = { code, message, ...(field ? { field } : {}) };
  sendJson(res, status, { error }, extra);
}

async function serveWindow(req: IncomingMessage, res: ServerResponse, url: URL, root: string): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' }).end('method not allowed\n');
    return;
  }
  const answer = await windowResponse(root, url.pathname);
  res.writeHead(answer.status, { ...answer.headers, 'Content-Length': Buffer.byteLength(answer.body) });
  res.end(req.method === 'HEAD' ? undefined : answer.body);
}

export function createApiServer(options: ApiServerOptions): ApiServer {
  const { engine, token } = options;
  const rendererDir = resolve(options.rendererDir);
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const streams = new EventStreams(engine.events, options.heartbeatMs);
  let port = 0;

  async function callEngine(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const match = matchRoute(req.method ?? 'GET', url.pathname);
    if (match.kind === 'none') return sendError(res, 404, 'not_found', `no such API route: ${req.method} ${url.pathname}`);
    if (match.kind === 'method') {
      return sendError(res, 405, 'bad_request', `${url.pathname} takes ${match.allowed.join(', ')}`, undefined, { Allow: match.allowed.join(', ') });
    }
    const body = match.method === 'GET' ? undefined : await readJsonBody(req, bodyLimit);
    // The engine validates, as it does for every transport.
    const output = await engine.request(match.name, assembleInput(match.name, match.params, url.searchParams, body));
    sendJson(res, 200, output);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = URL.canParse(req.url ?? '/', `http://127.0.0.1:${port}`) ? new URL(req.url ?? '/', `http://127.0.0.1:${port}`) : null;
    if (!url) return sendError(res, 400, 'bad_request', 'the request target is not a valid URL');
    const site = checkSite(req, port);
    if (site) return sendError(res, site.status, site.code, site.message);
    if (url.pathname !== '/api' && !url.pathname.startsWith('/api/')) return serveWindow(req, res, url, rendererDir);
    const refused = checkToken(req, url, token);
    if (refused) return sendError(res, refused.status, refused.code, refused.message, undefined, { 'WWW-Authenticate': 'Bearer' });
    if (url.pathname === EVENTS_PATH) {
      if (req.method !== 'GET') return sendError(res, 405, 'bad_request', `${EVENTS_PATH} takes GET`, undefined, { Allow: 'GET' });
      return streams.serve(req, res, resumePoint(req, url));
    }
    return callEngine(req, res, url);
  }

  function fail(res: ServerResponse, err: unknown): void {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    // An oversized upload is answered at once; closing the connection stops the rest of it.
    const close = { Connection: 'close' };
    if (err instanceof BodyError) return sendError(res, err.status, err.status === 413 ? 'too_large' : 'bad_request', err.message, undefined, err.status === 413 ? close : {});
    if (err instanceof URIError) return sendError(res, 400, 'bad_request', 'the URL is not validly encoded');
    if (err instanceof LanesError) return sendError(res, HTTP_STATUS[err.code], err.code, err.message, err.field);
    log(`api: ${(err as Error)?.stack ?? String(err)}`);
    sendError(res, 500, 'internal', 'the engine hit an internal error; its log has the details');
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => fail(res, err));
  });
  // A client that never finishes its headers should not pin a socket. (Node's request timeout
  // covers receiving a request only, so the long-lived event stream is unaffected.)
  server.headersTimeout = 10_000;

  return {
    server,
    listen(wanted: number) {
      return new Promise<number>((done, reject) => {
        server.once('error', reject);
        server.listen(wanted, '127.0.0.1', () => {
          server.off('error', reject);
          const address = server.address();
          port = typeof address === 'object' && address ? address.port : wanted;
          done(port);
        });
      });
    },
    close() {
      streams.closeAll();
      return new Promise<void>((done) => {
        server.close(() => done());
        // Keep-alive sockets idle between requests would otherwise hold close() open.
        server.closeIdleConnections();
      });
    },
  };
}
