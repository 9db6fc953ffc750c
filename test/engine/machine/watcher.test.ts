// The watcher: overrides from the environment, facts from the fixture machines fed through the
// real policy, the desktop's events read at once, and readers that fail kept quiet and safe.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCgroupLimits } from '../../../electron/engine/machine/cgroup.js';
import type { DesktopEvent, DesktopSignals, MachineFacts } from '../../../electron/engine/machine/facts.js';
import { INITIAL_LIMITS_STATE, machineLimits } from '../../../electron/engine/machine/limits.js';
import { MachineWatcher, type MachineSample, type WatcherOptions } from '../../../electron/engine/machine/watcher.js';
import { quietMachine } from '../../support/machine.js';

const fixtures = join(import.meta.dirname, '..', '..', 'fixtures', 'machine');
const MiB = 2 ** 20;
const GiB = 2 ** 30;

/** A plain machine: 8 cores, 16 GiB with 12 free, no cgroup, on the wall, nothing else busy; no desktop, so nobody is known at it and every CPU works. */
const plain = quietMachine();

const open = (o: WatcherOptions = {}) => MachineWatcher.open({ env: {}, ...o, readers: { ...plain, ...o.readers } });
const ceilingOf = (facts: MachineFacts) => machineLimits(facts, [], INITIAL_LIMITS_STATE).limits;

/** A desktop shell's powerMonitor, as the shell would adapt it. */
function fakeDesktop() {
  const listeners = new Set<(e: DesktopEvent) => void>();
  const state = { battery: false, idle: 3 };
  const signals: DesktopSignals = {
    onBattery: () => state.battery,
    idleSeconds: () => state.idle,
    thermalState: () => 'nominal',
    subscribe: (l) => (listeners.add(l), () => void listeners.delete(l)),
  };
  return { state, signals, listeners, emit: (e: DesktopEvent) => listeners.forEach((l) => l(e)) };
}

/** The next sample the watcher reports that matches; rejects, saying so, after `timeoutMs`. */
function nextSample(hook: { sampled?: (s: MachineSample) => void }, match: (s: MachineSample) => boolean, timeoutMs = 10_000): Promise<MachineSample> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no matching sample within ${timeoutMs} ms`)), timeoutMs);
    hook.sampled = (s) => {
      if (!match(s)) return;
      clearTimeout(timer);
      resolve(s);
    };
  });
}

describe('the machine watcher', () => {
  it('a bad override refuses to start, naming the variable', async () => {
    await expect(open({ env: { LANES_MEMORY: 'lots' } })).rejects.toThrow(/^LANES_MEMORY must be/);
    await expect(open({ env: { LANES_POWER: 'solar' } })).rejects.toThrow(/^LANES_POWER must be/);
  });

  it('LANES_CORES=8 on battery: at most 3, battery named; on the wall, headless, all 8', async () => {
    const battery = await open({ env: { LANES_CORES: '8', LANES_POWER: 'battery' }, readers: { cores: async () => 2 } });
    expect(battery.facts.cpu).toMatchObject({ cores: 8, coresFrom: 'override' });
    expect(battery.facts.power).toEqual({ source: 'battery', percent: null, from: 'override' });
    expect(ceilingOf(battery.facts)).toMatchObject({ ceiling: 3, limitedBy: 'battery' });
    const ac = await open({ env: { LANES_CORES: '8', LANES_POWER: 'ac' }, readers: { power: async () => ({ source: 'battery', percent: 10, from: 'observed' }) } });
    expect(ceilingOf(ac.facts)).toMatchObject({ ceiling: 8, limitedBy: 'cores' });
  });

  it('the engine’s cores option wins over LANES_CORES', async () => {
    const w = await open({ env: { LANES_CORES: '8' }, cores: 4 });
    expect(w.facts.cpu.cores).toBe(4);
  });

  it('LANES_MEMORY is passed on as the budget', async () => {
    const w = await open({ env: { LANES_MEMORY: '1500M' } });
    expect(w.facts.memory.override).toBe(1500 * MiB);
  });

  it('in a container of 2 CPUs on a 64-core host, headless, the ceiling is 2, and its memory is the container’s', async () => {
    const w = await open({ readers: { cores: async () => 64, affinity: () => 64, cgroup: () => readCgroupLimits(join(fixtures, 'container-2cpu')) } });
    expect(w.facts.cpu.quota).toBe(2);
    expect(w.facts.memory).toMatchObject({ total: 2 * GiB, available: 1548 * MiB });
    expect(ceilingOf(w.facts)).toMatchObject({ ceiling: 2, limitedBy: 'container' });
  });

  it('fewer CPUs to run on than cores (taskset, cpuset) bind as a container quota does', async () => {
    const w = await open({ readers: { affinity: () => 3 } });
    expect(ceilingOf(w.facts)).toMatchObject({ ceiling: 3, limitedBy: 'container' });
  });

  it('reads at once when the desktop says the power changed, and hears lock and unlock', async () => {
    const d = fakeDesktop();
    const hook: WatcherOptions = {};
    const w = await open({ desktop: d.signals, sampled: (s) => hook.sampled?.(s) });
    w.start();
    try {
      expect(w.facts.power.source).toBe('ac');
      expect(w.facts.person).toEqual({ idleSeconds: 3, locked: false });
      expect(w.facts.thermal).toBe('nominal');
      d.state.battery = true;
      const onBattery = nextSample(hook, (s) => s.facts.power.source === 'battery');
      d.emit('on-battery');
      expect(ceilingOf((await onBattery).facts).limitedBy).toBe('battery');
      const locked = nextSample(hook, (s) => s.facts.person?.locked === true);
      d.emit('lock-screen');
      await locked;
      const unlocked = nextSample(hook, (s) => s.facts.person?.locked === false);
      d.emit('unlock-screen');
      await unlocked;
    } finally {
      w.stop();
    }
    expect(d.listeners.size).toBe(0);
  });

  it('without a desktop the battery is asked about seldom, and the person is unknown', async () => {
    let asked = 0;
    const w = await open({ readers: { power: async () => (asked++, { source: 'battery', percent: 40, from: 'observed' }) } });
    for (let i = 0; i < 5; i++) await w.refresh();
    expect(asked).toBe(1);
    expect(w.facts.power).toEqual({ source: 'battery', percent: 40, from: 'observed' });
    expect(w.facts.person).toBeNull();
  });

  it('refreshes asked for while one runs share one more read', async () => {
    let reads = 0;
    const w = await open({ readers: { memory: async () => (reads++, { total: 16 * GiB, available: 12 * GiB }) } });
    reads = 0;
    await Promise.all(Array.from({ length: 6 }, () => w.refresh()));
    expect(reads).toBe(2);
  });

  it('a reader that fails keeps the last figure and is reported once', async () => {
    const lines: string[] = [];
    let fail = false;
    const w = await open({ log: (l) => lines.push(l), readers: { memory: async () => (fail ? Promise.reject(new Error('no meminfo')) : { total: 16 * GiB, available: 12 * GiB }) } });
    fail = true;
    await w.refresh();
    await w.refresh();
    expect(w.facts.memory.available).toBe(12 * GiB);
    expect(lines).toEqual(["could not read the machine's memory: no meminfo"]);
  });

  it('measures the workers it is given and counts what they hold', async () => {
    const w = await open({ workers: () => [{ id: 'me', pid: process.pid }] });
    expect(w.sample.workers[0]!.bytes).toBeGreaterThan(10 * MiB);
    expect(w.facts.memory.usedByLanes).toBe(w.sample.workers[0]!.bytes);
  });

  it('reads on its own cadence once started', async () => {
    const hook: WatcherOptions = {};
    // Each read of memory finds a MiB less, so every sample shows which read it came from.
    let reads = 0;
    const memory = async () => ({ total: 16 * GiB, available: 12 * GiB - ++reads * MiB });
    const w = await open({ sampleMs: 20, sampled: (s) => hook.sampled?.(s), readers: { memory } });
    expect(reads).toBe(1);
    const seen: number[] = [];
    const two = nextSample(hook, (s) => seen.push(s.facts.memory.available) === 2);
    w.start();
    await two;
    w.stop();
    // Two reads of its own after the first, nothing asked for by the test, each a fresh one.
    expect(seen).toEqual([12 * GiB - 2 * MiB, 12 * GiB - 3 * MiB]);
  });
});
