// The engine's local HTTP API: one `node:http` server (a framework would add a dependency and
// hide the checks this file exists to make obvious). Order of business for every request:
// who is asking (Host, Origin, token) → which request → its input → the engine → JSON out.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import { ZodError } from 'zod';
import { describeIssues } from '../../shared/schemas.js';
import { requests, type LanesErrorBody } from '../../shared/requests.js';
import { EVENTS_PATH } from '../../shared/bridge.js';
import type { Engine } from '../engine/engine.js';
import { LanesError } from '../engine/errors.js';
import { BodyError, DEFAULT_BODY_LIMIT, readJsonBody } from './body.js';
import { EventStreams, StreamRequestError, resumePoint, runBase } from './event-stream.js';
import { checkSite, checkToken } from './guard.js';
import { serveRenderer } from './renderer-files.js';
import { assembleInput, InputError, matchRoute } from './router.js';

type Code = LanesErrorBody['error']['code'];

const STATUS_OF: Record<Code, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  internal: 500,
};

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

function sendError(res: ServerResponse, status: number, code: Code, message: string, field?: string, extra: Record<string, string> = {}): void {
  const body: LanesErrorBody = { error: { code, message, ...(field ? { field } : {}) } };
  sendJson(res, status, body, extra);
}

/** The field a zod error is about: its first issue's path, or the first unknown key. */
function fieldOf(error: ZodError): string | undefined {
  const issue = error.issues[0];
  if (!issue) return undefined;
  if (issue.path.length > 0) return issue.path.join('.');
  return issue.code === 'unrecognized_keys' ? issue.keys[0] : undefined;
}

export function createApiServer(options: ApiServerOptions): ApiServer {
  const { engine, token } = options;
  const rendererDir = resolve(options.rendererDir);
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const streams = new EventStreams(engine.events, runBase(engine.startedAt), options.heartbeatMs);
  let port = 0;

  async function callEngine(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const match = matchRoute(req.method ?? 'GET', url.pathname);
    if (match.kind === 'none') return sendError(res, 404, 'not_found', `no such API route: ${req.method} ${url.pathname}`);
    if (match.kind === 'method') {
      return sendError(res, 405, 'bad_request', `${url.pathname} takes ${match.allowed.join(', ')}`, undefined, { Allow: match.allowed.join(', ') });
    }
    const body = match.method === 'GET' ? undefined : await readJsonBody(req, bodyLimit);
    const raw = assembleInput(match.name, match.params, url.searchParams, body);
    // The engine validates too; checking here as well names the field the same way whatever the
    // engine's own wording, and keeps malformed input from ever reaching it.
    const parsed = requests[match.name].input.safeParse(raw);
    if (!parsed.success) return sendError(res, 400, 'bad_request', describeIssues(parsed.error), fieldOf(parsed.error));
    const output = await engine.request(match.name, parsed.data);
    sendJson(res, 200, output);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = URL.canParse(req.url ?? '/', `http://127.0.0.1:${port}`) ? new URL(req.url ?? '/', `http://127.0.0.1:${port}`) : null;
    if (!url) return sendError(res, 400, 'bad_request', 'the request target is not a valid URL');
    const site = checkSite(req, port);
    if (site) return sendError(res, site.status, site.code, site.message);
    if (url.pathname !== '/api' && !url.pathname.startsWith('/api/')) return serveRenderer(req, res, url, rendererDir);
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
    if (err instanceof InputError || err instanceof StreamRequestError) return sendError(res, 400, 'bad_request', err.message, err.field);
    if (err instanceof URIError) return sendError(res, 400, 'bad_request', 'the URL is not validly encoded');
    if (err instanceof LanesError) return sendError(res, STATUS_OF[err.code], err.code, err.message, err.field);
    if (err instanceof ZodError) return sendError(res, 400, 'bad_request', describeIssues(err), fieldOf(err));
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
