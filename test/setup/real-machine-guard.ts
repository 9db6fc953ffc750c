// Every vitest file runs with this first (vitest.config.ts). A test that sizes workers from the
// machine it happens to run on passes on a quiet laptop and fails on a busy CI box: the load,
// the free memory, the battery and the core count must come from the test's own fake machine.
// So the readers of the real machine are wrapped: they still answer, but a test that calls one
// without asking for the real machine (`realMachine()` in test/support/machine.ts) fails after
// it, naming what it read. Reading a fixture root (readMemory('/fixtures/…')) is not the machine.
import { afterEach, vi } from 'vitest';

const seen = vi.hoisted(() => {
  const state = { reads: new Set<string>() };
  (globalThis as { lanesRealMachineRead?: (what: string) => void }).lanesRealMachineRead = (what) => void state.reads.add(what);
  return state;
});

const note = (what: string) => (globalThis as { lanesRealMachineRead?: (what: string) => void }).lanesRealMachineRead?.(what);

vi.mock('../../electron/engine/machine/meminfo.js', async (original) => {
  const m = await original<typeof import('../../electron/engine/machine/meminfo.js')>();
  return { ...m, readMemory: (root?: string) => (root === undefined && note('free memory (readMemory)'), m.readMemory(root)) };
});

vi.mock('../../electron/engine/machine/cpu-load.js', async (original) => {
  const m = await original<typeof import('../../electron/engine/machine/cpu-load.js')>();
  return { ...m, busyCpuMs: (usage: Parameters<typeof m.busyCpuMs>[0]) => (note('load (busyCpuMs)'), m.busyCpuMs(usage)) };
});

vi.mock('../../electron/engine/machine/power.js', async (original) => {
  const m = await original<typeof import('../../electron/engine/machine/power.js')>();
  return { ...m, readPower: () => (note('power (readPower)'), m.readPower()) };
});

vi.mock('../../electron/engine/machine/cgroup.js', async (original) => {
  const m = await original<typeof import('../../electron/engine/machine/cgroup.js')>();
  return { ...m, readCgroupLimits: (root?: string) => (root === undefined && note('cgroup limits (readCgroupLimits)'), m.readCgroupLimits(root)) };
});

afterEach(() => {
  const reads = [...seen.reads];
  seen.reads.clear();
  const allowed = (globalThis as { lanesRealMachineAllowed?: boolean }).lanesRealMachineAllowed === true;
  (globalThis as { lanesRealMachineAllowed?: boolean }).lanesRealMachineAllowed = false;
  if (reads.length > 0 && !allowed) {
    throw new Error(`this test read the real machine's ${reads.join(', ')}: give it a fake (machineReaders, quietMachine() in test/support/machine.ts) or call realMachine() if reading it is the point`);
  }
});
