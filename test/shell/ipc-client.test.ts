// The window's client over IPC, end to end without Electron: the shared LanesClient over
// ipcTransport, a bridge that carries messages the way the preload does, and main's side
// (ipc-requests.ts, ipc-feeds.ts) over real event hubs. What the window sees: typed answers,
// LanesErrors with their field, every event once and in order, and a reset when the engine
// inside the app restarts.
import { describe, expect, it } from 'vitest';
import { LanesClient } from '../../shared/client/client.js';
import { IPC, ipcTransport, type IpcBridge } from '../../shared/client/ipc.js';
import { LanesError } from '../../shared/errors.js';
import type { LanesEvent } from '../../shared/events.js';
import { EventHub } from '../../electron/engine/event-hub.js';
import type { Timers } from '../../electron/shell/coalesce.js';
import { IpcFeeds, type FeedPage } from '../../electron/shell/ipc-feeds.js';
import { answerRequest } from '../../electron/shell/ipc-requests.js';

type Engine = Parameters<typeof answerRequest>[1];

/** Main's side and a preload-like bridge, joined by direct calls instead of Electron's IPC. */
function desktop(engine: Engine, hub: EventHub) {
  const pending: (() => void)[] = [];
  const timers: Timers = { setTimeout: (fn) => pending.push(fn), clearTimeout: () => {} };
  const feeds = new IpcFeeds(timers);
  feeds.setSource(hub);
  const listeners = new Set<(channel: string, args: unknown[]) => void>();
  const page: FeedPage = { isDestroyed: () => false, send: (channel, ...args) => listeners.forEach((l) => l(channel, args)) };
  let next = 0;
  const bridge: IpcBridge = {
    request: (name, input) => answerRequest({ frameUrl: 'app://lanes/index.html', name, input }, engine),
    listen(since, onStart, onEvents) {
      const id = `s${++next}`;
      const listener = (channel: string, [subId, a, b]: unknown[]) => {
        if (subId !== id) return;
        if (channel === IPC.start) onStart(a as number, b as boolean);
        else onEvents(a as LanesEvent[]);
      };
      listeners.add(listener);
      feeds.message(page, { id, since });
      return () => {
        listeners.delete(listener);
        feeds.message(page, { id, stop: true });
      };
    },
  };
  const flush = () => pending.splice(0).forEach((fn) => fn());
  return { client: new LanesClient(ipcTransport(bridge)), feeds, flush };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));
const emit = (hub: EventHub, n: number) => {
  for (let i = 0; i < n; i++) hub.emit('laneRemoved', { name: `l${hub.lastSeq}` });
};

describe('the window\'s client over IPC', () => {
  const engine: Engine = {
    request: async (name: string) => {
      if (name === 'setCap') throw new LanesError('bad_request', 'cap must be at most 3', 'cap');
      return { answered: name } as never;
    },
  };

  it('answers requests, and rethrows refusals as LanesError with their field', async () => {
    const { client } = desktop(engine, new EventHub(1_000));
    expect(await client.call('status', {})).toEqual({ answered: 'status' });
    const refused = await client.call('setCap', { lane: 'worker', cap: 9 }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(LanesError);
    expect(refused).toMatchObject({ code: 'bad_request', field: 'cap' });
  });

  it('follows events once and in order, and reloads when the engine restarts', async () => {
    const hub = new EventHub(1_000);
    const { client, feeds, flush } = desktop(engine, hub);
    const seen: number[] = [];
    let resets = 0;
    let opens = 0;
    const stop = client.follow(0, { event: (e) => seen.push(e.seq), reset: () => resets++, open: () => void opens++ });
    await tick();
    expect(opens).toBe(1);
    emit(hub, 3);
    flush();
    expect(seen).toEqual([1_001, 1_002, 1_003]);

    const restarted = new EventHub(5_000);
    emit(restarted, 2);
    feeds.setSource(restarted);
    expect(resets).toBe(1);
    emit(hub, 1);
    emit(restarted, 1);
    flush();
    expect(seen).toEqual([1_001, 1_002, 1_003, 5_003]);

    stop();
    expect(feeds.size).toBe(0);
  });
});
