// The live event feed as Server-Sent Events. Each event goes out as
//   id: <seq>\nevent: <type>\ndata: <the LanesEvent as JSON, with the same seq>\n\n
// (seqs numbered per engine run, see runBase)
// so a browser EventSource resumes by itself (it sends the last id as Last-Event-ID), and a
// client that reconnects with `?since=SEQ` gets everything after SEQ, in order, before anything
// new. When the engine no longer holds what was missed, it says `reset` instead and the client
// reloads its snapshot.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LanesEvent } from '../../shared/events.js';
import { RESET_EVENT } from '../../shared/bridge.js';
import type { EventHub } from '../engine/event-hub.js';

/** Comments keep proxies and idle-timeouts from closing a quiet stream; at most this often. */
export const HEARTBEAT_MS = 15_000;
/** A client this far behind is cut off; it reconnects with its last id and loses nothing. */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

export class StreamRequestError extends Error {
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message);
  }
}

function parseSeq(text: string, field: string): number {
  const n = Number(text.trim());
  if (!/^\d{1,16}$/.test(text.trim()) || !Number.isSafeInteger(n)) throw new StreamRequestError(`${field}: must be an event sequence number`, field);
  return n;
}

/**
 * Where to resume: Last-Event-ID wins over `?since=` because EventSource sends it on every
 * automatic reconnect while the URL still carries the first `since`. Following the bridge's
 * contract, 0 (or nothing) means "from now".
 */
export function resumePoint(req: IncomingMessage, url: URL): number {
  const header = req.headers['last-event-id'];
  if (typeof header === 'string' && header.trim() !== '') return parseSeq(header, 'Last-Event-ID');
  const since = url.searchParams.get('since');
  return since === null || since === '' ? 0 : parseSeq(since, 'since');
}

/**
 * Over HTTP, sequence numbers are numbered per run of the engine: the run's base (its start time
 * in ms × 1000) plus the engine's own seq. The engine counts from 1 again after a restart, so a
 * window that resumes with a seq from the previous run would otherwise be handed the new run's
 * events as if they were the ones it missed; with a base, an old seq is plainly not from this run
 * and the answer is `reset`. (A run would need 1,000 events per ms, sustained, to overlap the next.)
 */
export function runBase(startedAt: number): number {
  return startedAt * 1000;
}

export class EventStreams {
  private readonly open = new Set<ServerResponse>();
  private heartbeat: NodeJS.Timeout | null = null;

  constructor(
    private readonly hub: EventHub,
    private readonly base: number,
    private readonly heartbeatMs = HEARTBEAT_MS,
  ) {}

  get count(): number {
    return this.open.size;
  }

  private frame(event: LanesEvent): string {
    const seq = this.base + event.seq;
    return `id: ${seq}\nevent: ${event.type}\ndata: ${JSON.stringify({ ...event, seq })}\n\n`;
  }

  /** Validate the resume point before calling: this writes the 200 at once. */
  serve(req: IncomingMessage, res: ServerResponse, since: number): void {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    const send = (text: string) => {
      if (res.writableLength > MAX_BUFFERED_BYTES) {
        res.destroy();
        return;
      }
      res.write(text);
    };
    // Subscribing and reading the backlog happen in one synchronous step, so no event can fall
    // between the replay and the live feed, and none can arrive twice.
    const unsubscribe = this.hub.subscribe((event) => send(this.frame(event)));
    const now = this.base + this.hub.lastSeq;
    // An id with no data dispatches nothing, but gives an EventSource its resume point even if
    // it drops before the first event arrives.
    send(`retry: 1000\nid: ${now}\n\n`);
    if (since > 0) {
      const after = since - this.base;
      // Before our base: a seq from an earlier run. Beyond our last: not one we ever sent.
      const missed = after < 0 || after > this.hub.lastSeq ? null : this.hub.since(after);
      if (missed === null) {
        send(`id: ${now}\nevent: ${RESET_EVENT}\ndata: ${JSON.stringify({ seq: now })}\n\n`);
      } else {
        send(missed.map((event) => this.frame(event)).join(''));
      }
    }
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
