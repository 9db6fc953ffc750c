// An idle engine sleeps. Over a simulated minute with no lane holding work and no worker it reads
// nothing of the machine and keeps no timer; a desktop event still reads it at once; work arriving
// reads it before the pass that sizes the work, so what status shows is the machine as it is now;
// and once the work is gone it sleeps again. The machine's readers are counted (they are the
// engine's /proc and cgroup reads) and the clock is simulated, so this is a test of what happens,
// not of how long anything takes.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Engine } from '../../electron/engine/index.js';
import type { DesktopEvent, DesktopSignals } from '../../electron/engine/machine/facts.js';
import type { MachineReaders } from '../../electron/engine/machine/watcher.js';
import { startEngine, tempDir } from '../support/engine.js';

const GiB = 2 ** 30;
const MINUTE = 60_000;

/** A machine whose every read is counted, and whose free memory the test moves. */
function countedMachine() {
  const reads = { memory: 0, cgroup: 0, load: 0, power: 0 };
  const state = { available: 12 * GiB };
  const readers: Partial<MachineReaders> = {
    cores: async () => 8,
    affinity: () => 8,
    memory: async () => (reads.memory++, { total: 16 * GiB, available: state.available }),
    cgroup: () => (reads.cgroup++, { cpus: null, memoryMax: null, memoryFree: null, cpuUsage: null }),
    power: async () => (reads.power++, { source: 'ac', percent: null, from: 'observed' }),
    busyMs: () => (reads.load++, 0),
  };
  const total = () => reads.memory + reads.cgroup + reads.load + reads.power;
  return { reads, state, readers, total };
}

function desktop() {
  const listeners = new Set<(e: DesktopEvent) => void>();
  const signals: DesktopSignals = {
    onBattery: () => false,
    idleSeconds: () => 0,
    thermalState: () => 'nominal',
    subscribe: (l) => (listeners.add(l), () => void listeners.delete(l)),
  };
  return { signals, emit: (e: DesktopEvent) => listeners.forEach((l) => l(e)) };
}

/** Lets real I/O and promise chains run (the simulated clock does not move) until `done`, at most `turns` turns. */
async function settle(done: () => boolean, turns = 500): Promise<void> {
  for (let i = 0; i < turns && !done(); i++) await new Promise((r) => setImmediate(r));
}

let engine: Engine | null = null;
let cleanup = () => {};
beforeEach(() => {
  // Only the clock's timers are simulated: setImmediate and I/O stay real, so the engine runs.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
});
afterEach(async () => {
  vi.useRealTimers();
  await engine?.stop({ graceMs: 1000 });
  engine = null;
  cleanup();
});

async function open(m: ReturnType<typeof countedMachine>, d = desktop()): Promise<Engine> {
  const dir = tempDir();
  cleanup = dir.cleanup;
  engine = await startEngine(dir.dir, { tickMs: MINUTE, sampleMs: 15_000, machineReaders: m.readers, desktop: d.signals, cgroups: false });
  await settle(() => false, 20);
  return engine;
}

describe('an idle engine', () => {
  it('reads nothing and keeps no timer over a minute with no work and no worker; a desktop event still reads at once', async () => {
    const m = countedMachine();
    const d = desktop();
    const e = await open(m, d);
    await e.request('addLane', { name: 'quiet', cap: 2 });
    await settle(() => false, 20);
    const before = m.total();
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(m.total()).toBe(before);
    expect(vi.getTimerCount()).toBe(0);

    d.emit('resume');
    await settle(() => m.reads.memory > 0 && m.total() > before);
    expect(m.reads.cgroup).toBeGreaterThan(0);
    expect(m.total()).toBeGreaterThan(before);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('work arriving reads the machine before it is sized; the cadence runs while work is held and stops when it is gone', async () => {
    const m = countedMachine();
    const e = await open(m);
    await e.request('addLane', { name: 'held', cap: 0 });
    await settle(() => false, 20);
    const shownBefore = e.status().machine.memoryBytes;

    // Memory runs short while the engine sleeps: nothing reads it …
    m.state.available = 2 * GiB;
    const asleep = m.reads.memory;
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(m.reads.memory).toBe(asleep);
    expect(e.status().machine.memoryBytes).toBe(shownBefore);

    // … until work arrives: one read, and the pass on it shows the memory as it is now.
    await e.request('addJob', { lane: 'held', argv: ['true'] });
    await settle(() => m.reads.memory > asleep);
    await settle(() => e.status().machine.memoryBytes !== shownBefore);
    expect(m.reads.memory).toBe(asleep + 1);
    expect(e.status().machine.memoryBytes).toBeLessThan(shownBefore);

    // A lane holding work (even at cap 0) is sized: the machine is read on its cadence.
    const awake = m.reads.memory;
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(m.reads.memory).toBeGreaterThanOrEqual(awake + 3);

    // The work leaves: the engine sleeps again.
    await e.request('cancelJobs', { lane: 'held' });
    await settle(() => false, 20);
    const after = m.total();
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(m.total()).toBe(after);
    // Nothing ticks: the one timer that may be left is retention's pass for when the cancelled job is first
    // past its keep (days away), and a whole idle hour passes reading nothing.
    expect(vi.getTimerCount()).toBeLessThanOrEqual(1);
    await vi.advanceTimersByTimeAsync(60 * MINUTE);
    expect(m.total()).toBe(after);
  });
});
