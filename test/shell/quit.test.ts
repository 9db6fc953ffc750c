// The quit sequence: show stopping, drain within the grace period, stop, clean up, exit — once.
import { describe, expect, it } from 'vitest';
import { QUIT_NOW_LIMIT_MS, QuitSequence, STOP_MARGIN_MS, type QuitDeps } from '../../electron/shell/quit.js';
import type { Timers } from '../../electron/shell/coalesce.js';

function fakeTimers() {
  const pending = new Map<number, { fn: () => void; at: number }>();
  let next = 0;
  let now = 0;
  const timers: Timers = {
    setTimeout(fn, ms) {
      pending.set(++next, { fn, at: now + ms });
      return next;
    },
    clearTimeout(handle) {
      pending.delete(handle as number);
    },
  };
  const advance = (ms: number) => {
    now += ms;
    for (const [id, t] of [...pending]) if (t.at <= now) {
      pending.delete(id);
      t.fn();
    }
  };
  return { timers, advance, pending };
}

function setup(stop: (graceMs: number) => Promise<void> = async () => {}, stopNow: () => Promise<void> = async () => {}) {
  const calls: string[] = [];
  const { timers, advance, pending } = fakeTimers();
  const deps: QuitDeps = {
    showStopping: () => calls.push('showStopping'),
    stopEngine: (graceMs) => {
      calls.push(`stopEngine(${graceMs})`);
      return stop(graceMs);
    },
    stopEngineNow: () => {
      calls.push('stopEngineNow');
      return stopNow();
    },
    cleanUp: () => calls.push('cleanUp'),
    exit: (code) => calls.push(`exit(${code})`),
    log: () => {},
    timers,
  };
  return { quit: new QuitSequence(deps), calls, advance, pending };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('QuitSequence', () => {
  it('drains within the grace period, then cleans up and exits 0', async () => {
    let finish!: () => void;
    const { quit, calls, pending } = setup(() => new Promise((resolve) => (finish = resolve)));
    expect(quit.onBeforeQuit(20_000)).toBe(true);
    expect(quit.phase).toBe('draining');
    expect(calls).toEqual(['showStopping', 'stopEngine(20000)']);
    finish();
    await tick();
    expect(calls).toEqual(['showStopping', 'stopEngine(20000)', 'cleanUp', 'exit(0)']);
    expect(quit.phase).toBe('exiting');
    expect(pending.size).toBe(0);
  });

  it('a second quit while draining is held back and starts nothing new', async () => {
    const { quit, calls } = setup(() => new Promise(() => {}));
    quit.onBeforeQuit(1000);
    expect(quit.onBeforeQuit(1000)).toBe(true);
    expect(calls.filter((c) => c.startsWith('stopEngine'))).toHaveLength(1);
  });

  it('lets the final quit through once exiting', async () => {
    const { quit } = setup();
    quit.onBeforeQuit(0);
    await tick();
    expect(quit.onBeforeQuit()).toBe(false);
  });

  it('exits 1 anyway when the engine overruns grace + margin', async () => {
    const { quit, calls, advance } = setup(() => new Promise(() => {}));
    quit.onBeforeQuit(1000);
    advance(1000 + STOP_MARGIN_MS - 1);
    await tick();
    expect(calls).not.toContain('exit(1)');
    advance(1);
    await tick();
    expect(calls.slice(-2)).toEqual(['cleanUp', 'exit(1)']);
  });

  it('exits 1 when stopping throws, still cleaning up', async () => {
    const { quit, calls } = setup(async () => {
      throw new Error('disk full');
    });
    quit.onBeforeQuit(1000);
    await tick();
    expect(calls.slice(-2)).toEqual(['cleanUp', 'exit(1)']);
  });

  it('"Quit now" during a drain stops the engine at once and exits', async () => {
    const { quit, calls } = setup(() => new Promise(() => {}));
    quit.onBeforeQuit(20_000);
    await quit.now();
    expect(calls).toEqual(['showStopping', 'stopEngine(20000)', 'stopEngineNow', 'cleanUp', 'exit(0)']);
  });

  it('"Quit now" does not wait past its limit for an engine still draining', async () => {
    const { quit, calls, advance } = setup(
      () => new Promise(() => {}),
      () => new Promise(() => {}),
    );
    quit.onBeforeQuit(20_000);
    const done = quit.now();
    await tick();
    expect(calls).not.toContain('exit(0)');
    advance(QUIT_NOW_LIMIT_MS);
    await done;
    expect(calls.slice(-2)).toEqual(['cleanUp', 'exit(0)']);
  });

  it('"Quit now" before any quit drains with no grace', async () => {
    const { quit, calls } = setup();
    await quit.now();
    await tick();
    expect(calls).toEqual(['showStopping', 'stopEngine(0)', 'cleanUp', 'exit(0)']);
  });

  it('exits only once however many paths finish', async () => {
    let finish!: () => void;
    const { quit, calls } = setup(() => new Promise((resolve) => (finish = resolve)));
    quit.onBeforeQuit(1000);
    await quit.now();
    finish();
    await tick();
    expect(calls.filter((c) => c.startsWith('exit'))).toEqual(['exit(0)']);
  });
});
