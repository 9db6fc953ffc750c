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
/**
 * Whatever the pace, all clients together may hold this much unsent in the engine's memory: past
 * it, the client furthest behind is cut, and reconnects with its last id like a stalled one. A
 * client is written to only while its socket takes more (serve), so this is the backstop, not the
 * rule: 40 clients that never read once took the engine from 78 to 542 MiB.
 */
export const STREAMS_MAX_BUFFERED_BYTES = 32 * 1024 * 1024;

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

const frameOf = (event: LanesEvent) => `id: ${event.seq}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;

export class EventStreams {
  private readonly open = new Set<ServerResponse>();
  private heartbeat: NodeJS.Timeout | null = null;
  /** The event the bound was last looked at for: once per event, not once per client and event. */
  private boundSeq = -1;
  /**
   * The last event's frame, written once for every client: each stream's buffer then holds the
   * same string, not a copy of its own, and an event costs one JSON.stringify however many listen.
   */
  private last: { seq: number; text: string } | null = null;

  private frame(event: LanesEvent): string {
    if (this.last?.seq !== event.seq) this.last = { seq: event.seq, text: frameOf(event) };
    return this.last.text;
  }

  constructor(
    private readonly hub: EventHub,
    private readonly heartbeatMs = HEARTBEAT_MS,
    private readonly stallLimitMs = STALL_LIMIT_MS,
    private readonly maxBufferedBytes = STREAMS_MAX_BUFFERED_BYTES,
  ) {}

  get count(): number {
    return this.open.size;
  }

  /** Bytes written to the streams and not yet taken by their sockets, all clients together. */
  get bufferedBytes(): number {
    let n = 0;
    for (const res of this.open) n += res.writableLength;
    return n;
  }

  /** Over the bound: the streams furthest behind are cut until what is left is within it. */
  private bound(seq: number): void {
    if (seq === this.boundSeq) return;
    this.boundSeq = seq;
    let total = this.bufferedBytes;
    while (total > this.maxBufferedBytes) {
      let worst: ServerResponse | null = null;
      for (const res of this.open) if (!worst || res.writableLength > worst.writableLength) worst = res;
      if (!worst) return;
      total -= worst.writableLength;
      this.open.delete(worst);
      worst.destroy();
    }
  }

  /**
   * Validate the resume point before calling: this writes the 200 at once.
   *
   * A client whose socket is full is not written to: what it has not taken stays in the hub's
   * ring, and it is sent on from there when the socket drains. The engine so holds no backlog per
   * client (each write it buffers is one more object to free when the client goes, and 40 clients
   * that never read once held tens of thousands each), and a client that comes back finds the
   * events in order. One the ring has moved past, or that has not read for the stall limit, is cut
   * and resumes with its last id, as any dropped client does.
   */
  serve(req: IncomingMessage, res: ServerResponse, since: number): void {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    /** Since when the client's socket has been full; null while it keeps up. */
    let behindSince: number | null = null;
    /** The last event written to this client: where it is sent on from when it drains. */
    let sentSeq = 0;
    // A client's socket failing fails that client's stream, never the engine.
    res.on('error', () => res.destroy());
    const gone = () => res.writableEnded || res.destroyed;
    const write = (text: string) => {
      if (!res.write(text)) behindSince ??= Date.now();
    };
    const send = (event: LanesEvent) => {
      // Ended (closeAll at shutdown) but not yet closed: events still announced meanwhile go nowhere.
      if (gone()) return;
      if (behindSince !== null) {
        if (Date.now() - behindSince > this.stallLimitMs) res.destroy();
        return;
      }
      write(this.frame(event));
      sentSeq = event.seq;
    };
    res.on('drain', () => {
      behindSince = null;
      if (gone()) return;
      const missed = this.hub.since(sentSeq);
      if (missed === null) {
        res.destroy();
        return;
      }
      for (const event of missed) {
        write(frameOf(event));
        sentSeq = event.seq;
        if (behindSince !== null) return;
      }
    });
    write('retry: 1000\n\n');
    // First a `start` (or `reset`) naming the seq the feed goes on after: a client that asked
    // "from now" learns where now is, so its next reconnect resumes instead of starting afresh.
    const unsubscribe = this.hub.follow(
      since,
      (event) => {
        send(event);
        this.bound(event.seq);
      },
      (seq, reset) => {
        sentSeq = seq;
        write(`id: ${seq}\nevent: ${reset ? RESET_EVENT : START_EVENT}\ndata: ${JSON.stringify({ seq })}\n\n`);
      },
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
      for (const res of this.open) if (!res.writableEnded && !res.destroyed) res.write(': keepalive\n\n');
    }, this.heartbeatMs);
    // A quiet stream must not keep a stopping process alive.
    this.heartbeat.unref();
  }

  private stopHeartbeat(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
  }
}
