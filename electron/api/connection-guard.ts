// Who keeps a place among a door's connections when they are all taken. The cap exists so a flood
// of sockets cannot take the engine's file descriptors; but a cap that simply refuses newcomers
// lets any local user hold the window's port shut with idle sockets. So a newcomer (no one is
// known at connect time) takes the place of the oldest connection that has not shown the token
// and is between requests, then of the oldest such one mid-request; a connection that has shown
// the token is never closed for it. And connections that have not shown it are let idle for a
// second, not the five a known one may keep alive.
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
  /** How long any connection may take to send its first request. */
  firstRequestMs: number;
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
}

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
  server.on('connection', (socket: Socket) => {
    if (open.size >= limits.limit) {
      const victim = placeFor([...open.values()]);
      if (victim === null) return void socket.destroy();
      open.delete(victim.socket);
      victim.socket.destroy();
    }
    const h: OpenConnection = { socket, since: performance.now(), trusted: trustAll, busy: false, timer: null };
    open.set(socket, h);
    idleFor(h, trustAll ? limits.firstRequestMs : Math.min(limits.firstRequestMs, limits.strangerIdleMs));
    socket.once('close', () => {
      if (h.timer) clearTimeout(h.timer);
      if (open.get(socket) === h) open.delete(socket);
    });
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const h = open.get(req.socket);
    if (!h) return;
    h.busy = true;
    if (h.timer) clearTimeout(h.timer);
    h.timer = null;
    res.once('close', () => {
      h.busy = false;
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
