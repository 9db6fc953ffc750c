// Main's side of `window.lanes`: one invoke channel for requests, one pair of channels for events.
// Only our own page (app://lanes) is answered. Events are batched per subscription and flushed a
// few times a second at most: a burst of thousands of job events becomes a handful of IPC messages.
import { ipcMain, type IpcMainEvent, type WebContents } from 'electron';
import { IPC, type Result } from '../../shared/bridge.js';
import type { LanesEvent } from '../../shared/events.js';
import type { Engine } from '../engine/index.js';
import type { EngineHost } from './engine-host.js';
import { failure, isRequestName, toResult } from './ipc-result.js';
import { isAppUrl } from './renderer-origin.js';

/** Preload → main on IPC.subscribe. */
export type SubscribeMessage = { id: string; since: number } | { id: string; stop: true };

const FLUSH_MS = 50;

interface Subscription {
  id: string;
  sender: WebContents;
  /** Last seq delivered (or skipped by a reset), so a restarted engine can be resumed from it. */
  seq: number;
  buffer: LanesEvent[];
  timer: NodeJS.Timeout | null;
  unsubscribe: (() => void) | null;
}

function fromOurPage(frameUrl: string | undefined): boolean {
  return typeof frameUrl === 'string' && isAppUrl(frameUrl);
}

export function setupIpc(host: EngineHost): () => void {
  const subscriptions = new Map<string, Subscription>();
  const watchedSenders = new WeakSet<WebContents>();

  ipcMain.handle(IPC.request, async (event, name: unknown, input: unknown): Promise<Result<unknown>> => {
    if (!fromOurPage(event.senderFrame?.url)) return failure('forbidden', 'only the Lanes window may make requests');
    if (!isRequestName(name)) return failure('bad_request', `unknown request "${String(name)}"`);
    const engine = host.engine();
    if (!engine) return failure('internal', 'Lanes is not running right now (see the tray menu)');
    const result = await toResult(() => engine.request(name, input));
    // A cap set from the window should show in the tray without waiting for the next batch.
    if (name === 'setCap' && result.ok) host.refresh();
    return result;
  });

  const flush = (sub: Subscription) => {
    sub.timer = null;
    if (sub.buffer.length === 0 || sub.sender.isDestroyed()) return;
    sub.sender.send(IPC.event, sub.id, sub.buffer);
    sub.buffer = [];
  };

  const reset = (sub: Subscription, engine: Engine) => {
    sub.buffer = [];
    sub.seq = engine.events.lastSeq;
    if (!sub.sender.isDestroyed()) sub.sender.send(IPC.reset, sub.id);
  };

  const attach = (sub: Subscription, engine: Engine, since: number) => {
    sub.unsubscribe?.();
    // 0 means "from now". Otherwise replay what was missed, or reset if it is forgotten.
    const missed = since === 0 ? [] : engine.events.since(since);
    sub.seq = since === 0 ? engine.events.lastSeq : since;
    if (missed === null) reset(sub, engine);
    else if (missed.length > 0) {
      sub.buffer.push(...missed);
      sub.seq = missed[missed.length - 1]?.seq ?? sub.seq;
      flush(sub);
    }
    sub.unsubscribe = engine.events.subscribe((event) => {
      sub.buffer.push(event);
      sub.seq = event.seq;
      sub.timer ??= setTimeout(() => flush(sub), FLUSH_MS);
    });
  };

  const drop = (id: string) => {
    const sub = subscriptions.get(id);
    if (!sub) return;
    sub.unsubscribe?.();
    if (sub.timer) clearTimeout(sub.timer);
    subscriptions.delete(id);
  };

  const dropSender = (sender: WebContents) => {
    for (const sub of [...subscriptions.values()]) if (sub.sender === sender) drop(sub.id);
  };

  const onSubscribe = (event: IpcMainEvent, message: SubscribeMessage) => {
    if (!fromOurPage(event.senderFrame?.url) || typeof message?.id !== 'string') return;
    const key = `${event.sender.id}:${message.id}`;
    if ('stop' in message) return drop(key);
    if (typeof message.since !== 'number' || !Number.isFinite(message.since)) return;
    drop(key);
    const sub: Subscription = { id: message.id, sender: event.sender, seq: 0, buffer: [], timer: null, unsubscribe: null };
    subscriptions.set(key, sub);
    if (!watchedSenders.has(event.sender)) {
      watchedSenders.add(event.sender);
      // A reload or a closed window leaves its subscriptions behind otherwise.
      event.sender.on('destroyed', () => dropSender(event.sender));
      event.sender.on('did-start-navigation', (details) => {
        if (details.isMainFrame && !details.isSameDocument) dropSender(event.sender);
      });
    }
    const engine = host.engine();
    if (engine) attach(sub, engine, message.since);
  };
  ipcMain.on(IPC.subscribe, onSubscribe);

  // When the engine (re)starts, every window's picture may be stale: tell them to reload.
  const stopWatching = host.onEngine((engine) => {
    for (const sub of subscriptions.values()) {
      sub.unsubscribe?.();
      sub.unsubscribe = null;
      if (engine) {
        reset(sub, engine);
        attach(sub, engine, engine.events.lastSeq);
      }
    }
  });

  return () => {
    stopWatching();
    for (const id of [...subscriptions.keys()]) drop(id);
    ipcMain.removeHandler(IPC.request);
    ipcMain.off(IPC.subscribe, onSubscribe);
  };
}
