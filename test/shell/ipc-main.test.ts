// Main's side of the window's IPC without Electron: requests answered as Result values, and event
// subscriptions kept on the engine's one resume scheme (EventHub.follow) with batching, replay,
// reset, and re-attaching when the engine behind the app restarts. Real event hubs, fake pages.
import { describe, expect, it } from 'vitest';
import { IPC } from '../../shared/client/ipc.js';
import { LanesError } from '../../shared/errors.js';
import type { LanesEvent } from '../../shared/events.js';
import { EventHub } from '../../electron/engine/event-hub.js';
import type { Timers } from '../../electron/shell/coalesce.js';
import { FLUSH_MS, IpcFeeds, MAX_FEEDS_PER_PAGE, parseSubscribe, type FeedPage } from '../../electron/shell/ipc-feeds.js';
import { answerRequest } from '../../electron/shell/ipc-requests.js';

function manualTimers() {
  const pending = new Map<number, { fn: () => void; ms: number }>();
  let next = 0;
  const timers: Timers = {
    setTimeout: (fn, ms) => (pending.set(++next, { fn, ms }), next),
    clearTimeout: (handle) => pending.delete(handle as number),
  };
  const fire = () => {
    for (const [id, t] of [...pending]) {
      pending.delete(id);
      t.fn();
    }
  };
  return { timers, pending, fire };
}

type Message = { channel: 'start'; id: string; seq: number; reset: boolean } | { channel: 'events'; id: string; seqs: number[] };

function page(): FeedPage & { messages: Message[]; destroyed: boolean } {
  const p = {
    messages: [] as Message[],
    destroyed: false,
    isDestroyed: () => p.destroyed,
    send(channel: string, ...args: unknown[]) {
      const id = args[0] as string;
      if (channel === IPC.start) p.messages.push({ channel: 'start', id, seq: args[1] as number, reset: args[2] as boolean });
      else if (channel === IPC.events) p.messages.push({ channel: 'events', id, seqs: (args[1] as LanesEvent[]).map((e) => e.seq) });
      else throw new Error(`unexpected channel ${channel}`);
    },
  };
  return p;
}

const BASE = 1_000_000;
const emit = (hub: EventHub, n = 1) => {
  for (let i = 0; i < n; i++) hub.emit('laneRemoved', { name: `l${hub.lastSeq}` });
};

function setup(hub: EventHub | null = new EventHub(BASE)) {
  const clock = manualTimers();
  const feeds = new IpcFeeds(clock.timers);
  feeds.setSource(hub);
  return { feeds, clock, hub: hub as EventHub };
}

describe('IPC subscriptions', () => {
  it('from now: a start naming where now is, then live events batched into one message', () => {
    const { feeds, clock, hub } = setup();
    emit(hub, 2);
    const p = page();
    feeds.message(p, { id: 'a', since: 0 });
    expect(p.messages).toEqual([{ channel: 'start', id: 'a', seq: BASE + 2, reset: false }]);
    emit(hub, 3);
    expect(p.messages).toHaveLength(1);
    expect([...clock.pending.values()].map((t) => t.ms)).toEqual([FLUSH_MS]);
    clock.fire();
    expect(p.messages[1]).toEqual({ channel: 'events', id: 'a', seqs: [BASE + 3, BASE + 4, BASE + 5] });
  });

  it('resuming after a seq: the start, then what was missed at once and in order', () => {
    const { feeds, hub } = setup();
    emit(hub, 5);
    const p = page();
    feeds.message(p, { id: 'a', since: BASE + 2 });
    expect(p.messages).toEqual([
      { channel: 'start', id: 'a', seq: BASE + 2, reset: false },
      { channel: 'events', id: 'a', seqs: [BASE + 3, BASE + 4, BASE + 5] },
    ]);
  });

  it('a forgotten seq, or one from an earlier run, is answered with a reset', () => {
    const { feeds, hub } = setup(new EventHub(BASE, () => {}, 10));
    emit(hub, 100);
    const p = page();
    feeds.message(p, { id: 'forgotten', since: BASE + 1 });
    feeds.message(p, { id: 'earlier-run', since: 5 });
    expect(p.messages).toEqual([
      { channel: 'start', id: 'forgotten', seq: BASE + 100, reset: true },
      { channel: 'start', id: 'earlier-run', seq: BASE + 100, reset: true },
    ]);
  });

  it('the engine restarts: what the old one said goes out first, then each page is told to reload and follows the new one', () => {
    const { feeds, clock, hub } = setup();
    const p = page();
    feeds.message(p, { id: 'a', since: 0 });
    emit(hub);
    const next = new EventHub(2 * BASE);
    emit(next, 4);
    feeds.setSource(next);
    expect(p.messages.slice(1)).toEqual([
      { channel: 'events', id: 'a', seqs: [BASE + 1] },
      { channel: 'start', id: 'a', seq: 2 * BASE + 4, reset: true },
    ]);
    emit(hub);
    emit(next);
    clock.fire();
    expect(p.messages.slice(3)).toEqual([{ channel: 'events', id: 'a', seqs: [2 * BASE + 5] }]);
  });

  it('a page that subscribed while no engine ran is told to reload when one starts', () => {
    const { feeds } = setup(null);
    const p = page();
    feeds.message(p, { id: 'a', since: 0 });
    expect(p.messages).toEqual([]);
    const hub = new EventHub(BASE);
    emit(hub, 2);
    feeds.setSource(hub);
    expect(p.messages).toEqual([{ channel: 'start', id: 'a', seq: BASE + 2, reset: true }]);
  });

  it('stopping, a page going away, and a destroyed page end the feed', () => {
    const { feeds, clock, hub } = setup();
    const a = page();
    const b = page();
    feeds.message(a, { id: 'x', since: 0 });
    feeds.message(a, { id: 'y', since: 0 });
    feeds.message(b, { id: 'x', since: 0 });
    expect(feeds.size).toBe(3);
    feeds.message(a, { id: 'x', stop: true });
    feeds.dropPage(b);
    expect(feeds.size).toBe(1);
    a.destroyed = true;
    emit(hub);
    clock.fire();
    expect([...a.messages, ...b.messages].filter((m) => m.channel === 'events')).toEqual([]);
    feeds.close();
    expect(feeds.size).toBe(0);
  });

  it('the same id again replaces its subscription; a page gets a bounded number', () => {
    const { feeds } = setup();
    const p = page();
    feeds.message(p, { id: 'a', since: 0 });
    feeds.message(p, { id: 'a', since: 0 });
    expect(feeds.size).toBe(1);
    for (let i = 0; i < 2 * MAX_FEEDS_PER_PAGE; i++) feeds.message(p, { id: `n${i}`, since: 0 });
    expect(feeds.size).toBe(MAX_FEEDS_PER_PAGE);
  });

  it.each([
    [{ id: 'a', since: 0 }, { id: 'a', since: 0 }],
    [{ id: 'a', since: 42 }, { id: 'a', since: 42 }],
    [{ id: 'a', stop: true }, { id: 'a', stop: true }],
    [{ id: 'a', since: -1 }, null],
    [{ id: 'a', since: 1.5 }, null],
    [{ id: 'a', since: '3' }, null],
    [{ id: 'a' }, null],
    [{ id: '', since: 0 }, null],
    [{ id: 'x'.repeat(65), since: 0 }, null],
    [{ id: 7, since: 0 }, null],
    [null, null],
    ['a', null],
  ])('subscribe message %j → %j', (message, expected) => {
    expect(parseSubscribe(message)).toEqual(expected);
  });
});

describe('IPC requests', () => {
  const ours = 'app://lanes/index.html';
  const engine = {
    request: async (name: string, input: unknown) => {
      if (name === 'setCap') throw new LanesError('bad_request', 'cap must be 0..3', 'cap');
      if (name === 'timeline') throw new Error('boom');
      return { name, input };
    },
  } as Parameters<typeof answerRequest>[1];

  it('answers our page with the engine\'s answer or its error, as values', async () => {
    expect(await answerRequest({ frameUrl: ours, name: 'status', input: {} }, engine)).toEqual({ ok: true, value: { name: 'status', input: {} } });
    expect(await answerRequest({ frameUrl: ours, name: 'setCap', input: {} }, engine)).toEqual({
      ok: false,
      error: { code: 'bad_request', message: 'cap must be 0..3', field: 'cap' },
    });
    expect(await answerRequest({ frameUrl: ours, name: 'timeline', input: {} }, engine)).toEqual({ ok: false, error: { code: 'internal', message: 'boom' } });
  });

  it.each([
    [{ frameUrl: 'https://evil.example/', name: 'status' }, 'forbidden'],
    [{ frameUrl: undefined, name: 'status' }, 'forbidden'],
    [{ frameUrl: 'app://lanes.evil/', name: 'status' }, 'forbidden'],
    [{ frameUrl: ours, name: 'nope' }, 'bad_request'],
    [{ frameUrl: ours, name: 'toString' }, 'bad_request'],
    // A request the window never makes: queueing thousands at once is the CLI's and the API's.
    [{ frameUrl: ours, name: 'addJobs' }, 'forbidden'],
  ])('refuses %j with %s', async (request, code) => {
    expect(await answerRequest({ ...request, input: {} }, engine)).toMatchObject({ ok: false, error: { code } });
  });

  it('says so while the engine is not running', async () => {
    expect(await answerRequest({ frameUrl: ours, name: 'status', input: {} }, null)).toMatchObject({ ok: false, error: { code: 'internal' } });
  });
});
