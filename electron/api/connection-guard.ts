// Who keeps a place among a door's connections when they are all taken. The cap exists so a flood
// of sockets cannot take the engine's file descriptors; but a cap that simply refuses newcomers
// lets any local user hold the window's port shut with idle sockets. So a newcomer (no one is
// known at connect time) takes the place of the oldest connection that has not shown the token
// and is between requests, then of the oldest such one mid-request; a connection that has shown
// the token is never closed for it. And connections that have not shown it are let idle for a
// second, not the five a known one may keep alive. The guard also holds every request to its time
// limits (Node's own check runs on a timer every second whether anyone is connected or not, which
// kept an idle engine waking), so an engine nobody talks to arms no timer for its doors.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface Place {
  /** When it connected: the oldest goes first. */
  since: number;
  /** It carried the token (or came through the owner's socket). */
  trusted: boolean;
  /** A request of it is being answered. */
  busy: boolean;
}

/**
 * Which connection to close so a newcomer fits, when `places` fill the door; null: none may be
 * closed for it (every place is a trusted connection's), and the newcomer is refused. Pure.
 */
export function placeFor<T extends Place>(places: readonly T[]): T | null {
  let idle: T | null = null;
  let busy: T | null = null;
  for (const p of places) {
    if (p.trusted) continue;
    if (!p.busy && (idle === null || p.since < idle.since)) idle = p;
    if (p.busy && (busy === null || p.since < busy.since)) busy = p;
  }
  return idle ?? busy;
}

export interface GuardLimits {
  /** Connections at once. */
  limit: number;
  /** How long a connection that has not shown the token may sit without a request. */
  strangerIdleMs: number;
  /** How long any connection may take to send its first request (its headers, however slowly they trickle). */
  firstRequestMs: number;
  /** How long a request's body may take to arrive once its headers have. */
  requestMs: number;
  /** How long a kept-alive connection may idle between requests (Node closes it then); the next request's headers get firstRequestMs more. */
  keepAliveMs: number;
}

export interface ConnectionGuard {
  /** The request showed the token (or came through the owner's door): its connection keeps its place. */
  trust(req: IncomingMessage): void;
  /** Connections open now. */
  readonly size: number;
}

interface OpenConnection extends Place {
  socket: Socket;
  timer: NodeJS.Timeout | null;
  /** When the next request must have arrived by, while none is being answered. */
  deadline: NodeJS.Timeout | null;
}

/** What Node's parser says of a request that came too slowly: the door's clientError answers it (408) and closes. */
const tooSlow = () => Object.assign(new Error('the request did not arrive in time'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' });

/** Caps `server`'s connections by placeFor; `trustAll` for a door only the owner can reach. */
export function guardConnections(server: Server, limits: GuardLimits, trustAll: boolean): ConnectionGuard {
  const open = new Map<Socket, OpenConnection>();
  const idleFor = (h: OpenConnection, ms: number) => {
    if (h.timer) clearTimeout(h.timer);
    const readBefore = h.socket.bytesRead;
    h.timer = setTimeout(() => {
      h.timer = null;
      // After the poll phase, not before it: when the engine was busy for longer than the limit,
      // a request that came meanwhile is read first, and the connection is not idle after all.
      setImmediate(() => {
        if (!h.busy && h.timer === null && h.socket.bytesRead === readBefore) h.socket.destroy();
      });
    }, ms).unref();
  };
  const late = (h: OpenConnection) => {
    if (!h.socket.destroyed) server.emit('clientError', tooSlow(), h.socket);
  };
  const nextRequestWithin = (h: OpenConnection, ms: number | null) => {
    if (h.deadline) clearTimeout(h.deadline);
    h.deadline = null;
    if (ms === null) return;
    const deadline = setTimeout(() => {
      // After the poll phase, as for idling: a request read there has cleared this deadline.
      setImmediate(() => h.deadline === deadline && !h.busy && late(h));
    }, ms).unref();
    h.deadline = deadline;
  };
  server.on('connection', (socket: Socket) => {
    if (open.size >= limits.limit) {
      const victim = placeFor([...open.values()]);
      if (victim === null) return void socket.destroy();
      open.delete(victim.socket);
      victim.socket.destroy();
    }
    const h: OpenConnection = { socket, since: performance.now(), trusted: trustAll, busy: false, timer: null, deadline: null };
    open.set(socket, h);
    idleFor(h, trustAll ? limits.firstRequestMs : Math.min(limits.firstRequestMs, limits.strangerIdleMs));
    nextRequestWithin(h, limits.firstRequestMs);
    socket.once('close', () => {
      if (h.timer) clearTimeout(h.timer);
      nextRequestWithin(h, null);
      if (open.get(socket) === h) open.delete(socket);
    });
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const h = open.get(req.socket);
    if (!h) return;
    h.busy = true;
    if (h.timer) clearTimeout(h.timer);
    h.timer = null;
    nextRequestWithin(h, null);
    if (!req.complete) {
      // Answered already (a refusal need not wait for the body), there is nothing to say: the door closes.
      const body = setTimeout(() => (res.headersSent ? h.socket.destroy() : late(h)), limits.requestMs).unref();
      const arrived = () => clearTimeout(body);
      req.once('end', arrived).once('close', arrived);
    }
    res.once('close', () => {
      h.busy = false;
      if (!h.socket.destroyed) nextRequestWithin(h, limits.keepAliveMs + limits.firstRequestMs);
      // A known connection idles as Node's keep-alive allows; a stranger's only briefly.
      if (!h.trusted && !h.socket.destroyed) idleFor(h, limits.strangerIdleMs);
    });
  });
  return {
    trust(req) {
      const h = open.get(req.socket);
      if (h) h.trusted = true;
    },
    get size() {
      return open.size;
    },
  };
}
