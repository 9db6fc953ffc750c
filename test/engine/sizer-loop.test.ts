// When the sizer loop sleeps and how it wakes, with its ports as plain recorders: a pass that
// finds nothing to size stops the tick and the machine's cadence; an event reads the machine
// before the pass that sizes; a pass asked for while asleep runs on the facts it has and wakes
// the loop only if it found work; while the machine is being read, passes wait for the sample.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ARRIVALS_GAP_MS, SizerLoop, type LoopPorts, type PassOutcome } from '../../electron/engine/sizer/loop.js';

function recorder(idle: boolean) {
  const calls: string[] = [];
  const state = { idle, sample: null as null | (() => void) };
  const ports: LoopPorts = {
    run: (): PassOutcome => (calls.push(state.idle ? 'pass: idle' : 'pass: work'), { wakeAt: null, idle: state.idle }),
    failed: (e) => calls.push(`failed: ${String(e)}`),
    sleep: () => calls.push('sleep'),
    wake: () => (calls.push('read the machine'), new Promise<void>((done) => (state.sample = done))),
  };
  return { calls, state, ports };
}

const turn = () => new Promise((r) => setImmediate(r));
let loop: SizerLoop | null = null;
afterEach(() => {
  loop?.stop();
  vi.useRealTimers();
});

describe('the sizer loop', () => {
  it('a first pass with nothing to size puts it to sleep; another pass asked for while asleep does not read the machine', () => {
    const r = recorder(true);
    loop = new SizerLoop(r.ports, 60_000, Date.now);
    loop.start();
    loop.pass();
    expect(r.calls).toEqual(['pass: idle', 'sleep', 'pass: idle']);
  });

  it('an event while asleep reads the machine first; the pass runs once the sample is in, and the loop stays awake with work', async () => {
    const r = recorder(true);
    loop = new SizerLoop(r.ports, 60_000, Date.now);
    loop.start();
    r.state.idle = false;
    loop.poke();
    loop.poke();
    // While the machine is read, a pass asked for waits for the sample.
    loop.pass();
    await turn();
    expect(r.calls).toEqual(['pass: idle', 'sleep', 'read the machine']);
    r.state.sample!();
    await turn();
    expect(r.calls).toEqual(['pass: idle', 'sleep', 'read the machine', 'pass: work']);
    loop.poke();
    await turn();
    expect(r.calls.at(-1)).toBe('pass: work');
    expect(r.calls.filter((c) => c === 'read the machine')).toHaveLength(1);
  });

  it('a pass asked for while asleep that finds work wakes the loop; once the work is gone it sleeps again', async () => {
    const r = recorder(true);
    loop = new SizerLoop(r.ports, 60_000, Date.now);
    loop.start();
    r.state.idle = false;
    loop.pass();
    expect(r.calls).toEqual(['pass: idle', 'sleep', 'pass: work', 'read the machine']);
    r.state.sample!();
    await turn();
    r.state.idle = true;
    loop.poke();
    await turn();
    expect(r.calls.slice(-3)).toEqual(['pass: work', 'pass: idle', 'sleep']);
  });

  it('work arriving job by job is sized at once the first time, then once at the end of each gap for all that came in it', async () => {
    vi.useFakeTimers();
    const r = recorder(false);
    loop = new SizerLoop(r.ports, 60_000, Date.now);
    loop.start();
    const passes = () => r.calls.filter((c) => c === 'pass: work').length;
    expect(passes()).toBe(1);
    loop.arrived();
    await vi.advanceTimersByTimeAsync(0);
    expect(passes()).toBe(2);
    // A hundred adds one after another inside the gap: none of them runs a pass of its own.
    for (let i = 0; i < 100; i++) loop.arrived();
    await vi.advanceTimersByTimeAsync(ARRIVALS_GAP_MS - 1);
    expect(passes()).toBe(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(passes()).toBe(3);
    // After a quiet spell the next arrival is sized at once again.
    await vi.advanceTimersByTimeAsync(ARRIVALS_GAP_MS * 3);
    expect(passes()).toBe(3);
    loop.arrived();
    await vi.advanceTimersByTimeAsync(0);
    expect(passes()).toBe(4);
  });

  it('a stopped loop runs no pass for work that arrived in the gap', async () => {
    vi.useFakeTimers();
    const r = recorder(false);
    loop = new SizerLoop(r.ports, 60_000, Date.now);
    loop.start();
    loop.arrived();
    await vi.advanceTimersByTimeAsync(0);
    loop.arrived();
    const before = r.calls.length;
    loop.stop();
    await vi.advanceTimersByTimeAsync(ARRIVALS_GAP_MS * 2);
    expect(r.calls.length).toBe(before);
  });
});
