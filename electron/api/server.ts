// The engine's local HTTP API: `node:http` (a framework would add a dependency and hide the checks
// this file exists to make obvious), on two doors. The engine's socket, in the private data
// directory, is for its owner's programs (the CLI): reaching it is the authentication. TCP on
// 127.0.0.1 is for the window in a browser: there every request must name us in Host and Origin
// and carry the token. Order of business: who is asking → which request → its input → the engine
// → JSON out.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { chmodSync, lstatSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { EVENTS_PATH } from '../../shared/client/http.js';
import type { Engine } from '../engine/engine.js';
import { DEFAULT_BODY_LIMIT, readJsonBody } from './body.js';
import { EVENTS_QUERY, EventStreams, resumePoint } from './event-stream.js';
import { checkSite, checkToken } from './guard.js';
import { answerUnparsed, sendError, sendFailure, sendJson } from './respond.js';
import { assembleInput, matchRoute } from './router.js';
import { checkTarget, strictQuery } from './strict-input.js';
import { guardConnections, type ConnectionGuard, type GuardLimits } from './connection-guard.js';
import type { WindowAccess } from './window-access.js';
import { windowResponse } from './window-files.js';
import { OPEN_ROUTES, windowRoute } from './window-routes.js';

export interface ApiServerOptions {
  engine: Engine;
  access: WindowAccess;
  rendererDir: string;
  bodyLimit?: number;
  heartbeatMs?: number;
  /** How long an event stream may stay unread before its client is cut off. */
  stallLimitMs?: number;
  /** Default CONNECTION_LIMITS. */
  connectionLimits?: GuardLimits;
  log?: (line: string) => void;
}

export interface ApiServer {
  readonly server: Server;
  listen(port: number): Promise<number>;
  /** Opens the owner's door: a socket (or named pipe) at `path`. */
  listenSocket(path: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Connections are capped and idle ones closed fast, so a flood of idle sockets cannot take the
 * engine's file descriptors (a macOS app gets 256); who keeps a place when the cap is reached is
 * connection-guard.ts's. Headers must come within 5 s and a body within 30 s: the guard times each
 * connection while it is open, and Node's own check, which runs every second (or 30) for as long
 * as the door is open, connected or not, is off (its timer is still armed, 24.8 days apart). A
 * request without Host is let through Node's parser so that the site check refuses it with the
 * same JSON 403 as a foreign Host (Node's own answer is a bare 400 nobody's client reads).
 */
const LIMITS = { headersTimeout: 0, requestTimeout: 0, keepAliveTimeout: 5_000, connectionsCheckingInterval: 2 ** 31 - 1, requireHostHeader: false };
/** 128 connections a door; one that has not shown the token may idle 1 s (a known one 5 s), and any must ask within 5 s. */
export const CONNECTION_LIMITS: GuardLimits = { limit: 128, strangerIdleMs: 1_000, firstRequestMs: 5_000, requestMs: 30_000, keepAliveMs: LIMITS.keepAliveTimeout };

async function serveWindow(req: IncomingMessage, res: ServerResponse, url: URL, root: string): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' }).end('method not allowed\n');
    return;
  }
  const answer = await windowResponse(root, url.pathname);
  res.writeHead(answer.status, { ...answer.headers, 'Content-Length': Buffer.byteLength(answer.body) });
  res.end(req.method === 'HEAD' ? undefined : answer.body);
}

/** The request target as a URL, parsed once (URL.parse is not in every Node 20); null if it is none. */
function parseTarget(target: string, base: string): URL | null {
  try {
    return new URL(target, base);
  } catch {
    return null;
  }
}

/** An API route's request, answered by the engine; an unknown route or method is refused here. */
async function callEngine(engine: ApiServerOptions['engine'], bodyLimit: number, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const match = matchRoute(req.method ?? 'GET', url.pathname);
  if (match.kind === 'none') return sendError(res, 404, 'not_found', `no such API route: ${req.method} ${url.pathname}`);
  if (match.kind === 'method') {
    return sendError(res, 405, 'bad_request', `${url.pathname} takes ${match.allowed.join(', ')}`, undefined, { Allow: match.allowed.join(', ') });
  }
  const body = match.method === 'GET' ? undefined : await readJsonBody(req, bodyLimit);
  // The engine validates, as it does for every transport.
  sendJson(res, 200, await engine.request(match.name, assembleInput(match.name, match.params, url, body)));
}

/** Resolves once `s` listens, rejects with the error that kept it from it. */
const listening = (s: Server, start: (ready: () => void) => void) =>
  new Promise<void>((done, reject) => {
    s.once('error', reject);
    start(() => {
      s.off('error', reject);
      done();
    });
  });

const shut = (s: Server) =>
  new Promise<void>((done) => {
    if (!s.listening) return done();
    s.close(() => done());
    // Keep-alive sockets idle between requests would otherwise hold close() open.
    s.closeIdleConnections();
  });

export function createApiServer(options: ApiServerOptions): ApiServer {
  const { engine, access } = options;
  const rendererDir = resolve(options.rendererDir);
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const streams = new EventStreams(engine.events, options.heartbeatMs, options.stallLimitMs);
  let port = 0;
  const windowBase = () => `http://127.0.0.1:${port}/`;

  /** `owner`: the request came through the socket in the private data directory. */
  async function handle(req: IncomingMessage, res: ServerResponse, owner: boolean): Promise<void> {
    const target = req.url ?? '/';
    const raw = checkTarget(target);
    if (raw) return sendError(res, 400, raw.code, raw.message);
    const url = parseTarget(target, windowBase());
    if (!url) return sendError(res, 400, 'bad_request', 'the request target is not a valid URL');
    // A refused stranger gets the door closed behind the answer, not a kept-alive socket.
    const close = { Connection: 'close' };
    if (!owner) {
      const site = checkSite(req, port);
      if (site) return sendError(res, site.status, site.code, site.message, undefined, close);
      if (url.pathname !== '/api' && !url.pathname.startsWith('/api/')) return serveWindow(req, res, url, rendererDir);
      if (!OPEN_ROUTES.has(url.pathname)) {
        const refused = checkToken(req, url, access.token);
        if (refused) return sendError(res, refused.status, refused.code, refused.message, undefined, { ...close, 'WWW-Authenticate': 'Bearer' });
        windowGuard?.trust(req);
      }
    }
    if (url.pathname === EVENTS_PATH) {
      if (req.method !== 'GET') return sendError(res, 405, 'bad_request', `${EVENTS_PATH} takes GET`, undefined, { Allow: 'GET' });
      return streams.serve(req, res, resumePoint(req, strictQuery(url, EVENTS_QUERY)));
    }
    if (await windowRoute(req, res, url, access, windowBase)) return;
    return callEngine(engine, bodyLimit, req, res, url);
  }

  /** The window's door's guard: a request that showed the token keeps its connection's place. */
  let windowGuard: ConnectionGuard | null = null;
  const door = (owner: boolean) => {
    const server = createServer(LIMITS, (req, res) => {
      // Beside CSP's frame-ancestors, for browsers that honour only this: no page frames ours.
      res.setHeader('X-Frame-Options', 'DENY');
      handle(req, res, owner).catch((err: unknown) => sendFailure(res, err, log));
    });
    server.on('clientError', answerUnparsed);
    // Everyone at the owner's door is the owner: none of them is closed for another.
    const guard = guardConnections(server, options.connectionLimits ?? CONNECTION_LIMITS, owner);
    if (!owner) windowGuard = guard;
    return server;
  };
  const server = door(false);
  const socket = door(true);
  let socketPath: string | null = null;

  return {
    server,
    async listen(wanted: number) {
      await listening(server, (ready) => server.listen(wanted, '127.0.0.1', ready));
      const address = server.address();
      port = typeof address === 'object' && address ? address.port : wanted;
      return port;
    },
    async listenSocket(path: string) {
      // Only this engine uses this data directory (it holds the lock), so a socket left here was
      // left by an engine that died.
      if (process.platform !== 'win32' && lstatSync(path, { throwIfNoEntry: false })) rmSync(path, { force: true });
      await listening(socket, (ready) => socket.listen(path, ready));
      if (process.platform !== 'win32') chmodSync(path, 0o600);
      socketPath = path;
    },
    async close() {
      streams.closeAll();
      await Promise.all([shut(server), shut(socket)]);
      if (socketPath && process.platform !== 'win32') rmSync(socketPath, { force: true });
    },
  };
}
