// The live event feed as Server-Sent Events. Each event goes out as
//   id: <seq>\nevent: <type>\ndata: <the LanesEvent as JSON>\n\n
// after a first `start` frame naming the seq the feed goes on after. A client that reconnects
// with `?since=SEQ` (or a browser EventSource, which sends the last id as Last-Event-ID) gets
// everything after SEQ, in order, before anything new. When the engine no longer holds what was
// missed, the first frame is `reset` instead, and the client reloads its snapshots.
// Seqs are the event hub's own, the same numbers IPC and in-process clients see.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { RESET_EVENT, START_EVENT, type LanesEvent } from '../../shared/events.js';
import { badRequest } from '../../shared/errors.js';
import type { EventHub } from '../engine/event-hub.js';

/** Comments keep proxies and idle-timeouts from closing a quiet stream; at most this often. */
export const HEARTBEAT_MS = 15_000;
/**
 * A client is judged by how long it has not kept up, not by the size of what is waiting for it:
 * one that has read nothing for this long is cut off, and reconnects with its last id losing
 * nothing. A client reading steadily through a burst is left alone.
 */
export const STALL_LIMIT_MS = 30_000;
/** Whatever the pace, this much unsent for one client is too much memory to hold for it. */
const MAX_BUFFERED_BYTES = 64 * 1024 * 1024;

function parseSeq(text: string, field: string): number {
  const n = Number(text.trim());
  if (!/^\d{1,16}$/.test(text.trim()) || !Number.isSafeInteger(n)) throw badRequest(`${field}: must be an event sequence number`, field);
  return n;
}

/** What the stream takes in its query: `token` for a browser's EventSource (guard.ts), and `since`. */
export const EVENTS_QUERY: ReadonlySet<string> = new Set(['since', 'token']);

/**
 * Where to resume: Last-Event-ID wins over `?since=` because EventSource sends it on every
 * automatic reconnect while the URL still carries the first `since`. 0 (or nothing) means
 * "from now".
 */
export function resumePoint(req: IncomingMessage, query: ReadonlyMap<string, string>): number {
  const header = req.headers['last-event-id'];
  if (typeof header === 'string' && header.trim() !== '') return parseSeq(header, 'Last-Event-ID');
  const since = query.get('since');
  return since === undefined || since === '' ? 0 : parseSeq(since, 'since');
}

const frame = (event: LanesEvent) => `id: ${event.seq}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;

export class EventStreams {
  private readonly open = new Set<ServerResponse>();
  private heartbeat: NodeJS.Timeout | null = null;

  constructor(
    private readonly hub: EventHub,
    private readonly heartbeatMs = HEARTBEAT_MS,
    private readonly stallLimitMs = STALL_LIMIT_MS,
  ) {}

  get count(): number {
    return this.open.size;
  }

  /** Validate the resume point before calling: this writes the 200 at once. */
  serve(req: IncomingMessage, res: ServerResponse, since: number): void {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    /** Since when the client has had more waiting than the socket takes; null while it keeps up. */
    let behindSince: number | null = null;
    res.on('drain', () => (behindSince = null));
    const send = (text: string) => {
      if ((behindSince !== null && Date.now() - behindSince > this.stallLimitMs) || res.writableLength > MAX_BUFFERED_BYTES) {
        res.destroy();
        return;
      }
      if (!res.write(text)) behindSince ??= Date.now();
    };
    send('retry: 1000\n\n');
    // First a `start` (or `reset`) naming the seq the feed goes on after: a client that asked
    // "from now" learns where now is, so its next reconnect resumes instead of starting afresh.
    const unsubscribe = this.hub.follow(
      since,
      (event) => send(frame(event)),
      (seq, reset) => send(`id: ${seq}\nevent: ${reset ? RESET_EVENT : START_EVENT}\ndata: ${JSON.stringify({ seq })}\n\n`),
    );
    this.open.add(res);
    this.startHeartbeat();
    const done = () => {
      unsubscribe();
      this.open.delete(res);
      if (this.open.size === 0) this.stopHeartbeat();
    };
    res.on('close', done);
    req.on('close', done);
  }

  /** Ends every stream, e.g. before the server closes, so shutdown does not wait on them. */
  closeAll(): void {
    for (const res of this.open) res.end();
    this.open.clear();
    this.stopHeartbeat();
  }

  private startHeartbeat(): void {
    if (this.heartbeat) return;
    this.heartbeat = setInterval(() => {
      for (const res of this.open) res.write(': keepalive\n\n');
    }, this.heartbeatMs);
    // A quiet stream must not keep a stopping process alive.
    this.heartbeat.unref();
  }

  private stopHeartbeat(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
  }
}
