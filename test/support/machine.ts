// The machine a test sizes against, stated by the test instead of read from wherever it runs.
// `quietMachine()` is the default of every in-process engine the test helpers start: a machine
// on the wall with free memory and no other program busy, so a loaded CI box sizes like an idle
// laptop. A test that means to read the real machine says so with `realMachine()`; any other
// read of it fails the test (test/setup/real-machine-guard.ts).
import type { MachineReaders } from '../../electron/engine/machine/watcher.js';

const GiB = 2 ** 30;

/** Every reader faked: 8 cores, 16 GiB with 12 free, no cgroup, on the wall, nothing else busy. `over` replaces any of them. */
export function quietMachine(over: Partial<MachineReaders> = {}): MachineReaders {
  return {
    cores: async () => 8,
    affinity: () => 8,
    memory: async () => ({ total: 16 * GiB, available: 12 * GiB }),
    cgroup: () => ({ cpus: null, memoryMax: null, memoryFree: null, cpuUsage: null }),
    power: async () => ({ source: 'ac', percent: null, from: 'observed' }),
    // Counters that never move: the load seen is the engine's own, which the watcher takes out.
    busyMs: () => 0,
    ...over,
  };
}

/** This test reads the real machine on purpose (a reader's own test): the guard lets it, for this test only. */
export function realMachine(): void {
  (globalThis as { lanesRealMachineAllowed?: boolean }).lanesRealMachineAllowed = true;
}
