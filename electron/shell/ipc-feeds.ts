// Main's bookkeeping for the window's event subscriptions over IPC, without Electron (ipc.ts only
// wires it to ipcMain and to each page's life). Each subscription follows the engine's event hub
// through EventHub.follow, the one resume scheme every transport uses: a `start` message first,
// then the events in batches. A burst of thousands of job events becomes a handful of messages.
// When the engine behind the app restarts, every subscription re-attaches from the last seq it
// delivered; that seq is from the old run, so the page is told to reload.
import { IPC, type SubscribeMessage } from '../../shared/client/ipc.js';
import type { LanesEvent } from '../../shared/events.js';
import { realTimers, type Timers } from './coalesce.js';

/** Where events come from: the engine's hub, narrowed to the one method used. */
export interface EventSource {
  follow(since: number, listener: (event: LanesEvent) => void, onStart: (seq: number, reset: boolean) => void): () => void;
}

/** A page that subscribes; Electron's WebContents has this shape. */
export interface FeedPage {
  send(channel: string, ...args: unknown[]): void;
  isDestroyed(): boolean;
}

/** Live events wait this long for company; a replay goes out at once. */
export const FLUSH_MS = 50;
/** The page is untrusted input: it gets a few short-named subscriptions, not unbounded ones. */
const MAX_ID_LENGTH = 64;
export const MAX_FEEDS_PER_PAGE = 32;

interface Feed {
  readonly id: string;
  readonly page: FeedPage;
  /** The last seq the page was told of (a start or an event): where a re-attach resumes. */
  seq: number;
  buffer: LanesEvent[];
  timer: unknown;
  stop: (() => void) | null;
}

/** A subscribe message as the page sent it, or null when it is not one. */
export function parseSubscribe(message: unknown): SubscribeMessage | null {
  if (typeof message !== 'object' || message === null) return null;
  const { id, since, stop } = message as Record<string, unknown>;
  if (typeof id !== 'string' || id.length === 0 || id.length > MAX_ID_LENGTH) return null;
  if (stop === true) return { id, stop: true };
  return typeof since === 'number' && Number.isSafeInteger(since) && since >= 0 ? { id, since } : null;
}

export class IpcFeeds {
  private readonly pages = new Map<FeedPage, Map<string, Feed>>();
  private source: EventSource | null = null;

  constructor(
    private readonly timers: Timers = realTimers,
    private readonly flushMs = FLUSH_MS,
  ) {}

  /** A message on IPC.subscribe from `page`, whose origin the caller has checked. */
  message(page: FeedPage, message: unknown): void {
    const parsed = parseSubscribe(message);
    if (!parsed) return;
    this.drop(page, parsed.id);
    if ('stop' in parsed) return;
    const feeds = this.pages.get(page) ?? new Map<string, Feed>();
    if (feeds.size >= MAX_FEEDS_PER_PAGE) return;
    this.pages.set(page, feeds);
    const feed: Feed = { id: parsed.id, page, seq: parsed.since, buffer: [], timer: null, stop: null };
    feeds.set(feed.id, feed);
    if (this.source) this.attach(feed, this.source, false);
  }

  /** The engine started (its hub) or went away (null). */
  setSource(source: EventSource | null): void {
    if (source === this.source) return;
    this.source = source;
    for (const feeds of this.pages.values()) {
      for (const feed of feeds.values()) {
        this.detach(feed);
        if (source) this.attach(feed, source, true);
      }
    }
  }

  /** A page closed or navigated away: its subscriptions go with it. */
  dropPage(page: FeedPage): void {
    for (const id of [...(this.pages.get(page)?.keys() ?? [])]) this.drop(page, id);
  }

  close(): void {
    for (const page of [...this.pages.keys()]) this.dropPage(page);
    this.source = null;
  }

  /** How many subscriptions are open (for tests and diagnostics). */
  get size(): number {
    let n = 0;
    for (const feeds of this.pages.values()) n += feeds.size;
    return n;
  }

  private drop(page: FeedPage, id: string): void {
    const feeds = this.pages.get(page);
    const feed = feeds?.get(id);
    if (!feeds || !feed) return;
    feed.stop?.();
    feed.stop = null;
    if (feed.timer !== null) this.timers.clearTimeout(feed.timer);
    feeds.delete(id);
    if (feeds.size === 0) this.pages.delete(page);
  }

  /** `engineChanged`: the page's picture, if any, was not built from this engine, so it reloads. */
  private attach(feed: Feed, source: EventSource, engineChanged: boolean): void {
    let replaying = true;
    feed.stop = source.follow(
      feed.seq,
      (event) => {
        feed.buffer.push(event);
        feed.seq = event.seq;
        if (!replaying && feed.timer === null) feed.timer = this.timers.setTimeout(() => this.flush(feed), this.flushMs);
      },
      (seq, reset) => {
        feed.seq = seq;
        this.send(feed, IPC.start, feed.id, seq, reset || engineChanged);
      },
    );
    replaying = false;
    // What was missed goes out at once: the page is waiting for it.
    this.flush(feed);
  }

  /** Whatever the old engine said still goes out, before anything from the next one. */
  private detach(feed: Feed): void {
    feed.stop?.();
    feed.stop = null;
    this.flush(feed);
  }

  private flush(feed: Feed): void {
    if (feed.timer !== null) this.timers.clearTimeout(feed.timer);
    feed.timer = null;
    if (feed.buffer.length === 0) return;
    const events = feed.buffer;
    feed.buffer = [];
    this.send(feed, IPC.events, feed.id, events);
  }

  private send(feed: Feed, channel: string, ...args: unknown[]): void {
    if (!feed.page.isDestroyed()) feed.page.send(channel, ...args);
  }
}
