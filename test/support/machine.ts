// The machine a test sizes against, stated by the test instead of read from wherever it runs.
// `quietMachine()` is the default of every in-process engine the test helpers start: a machine
// on the wall with free memory and no other program busy, so a loaded CI box sizes like an idle
// laptop. A test that means to read the real machine says so with `realMachine()`; any other
// read of it fails the test (test/setup/real-machine-guard.ts).
import type { DesktopEvent, DesktopSignals } from '../../electron/engine/machine/facts.js';
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

/**
 * The person, as the desktop's powerMonitor would report them: seconds since their last input
 * (a getter the test moves) and lock/unlock as events. Without one an engine has no desktop, as
 * under `lanes daemon`, and nobody is known to be at the computer.
 */
export function fakeDesktop(idleSeconds = 0): { signals: DesktopSignals; person: { idleSeconds: number }; emit(e: DesktopEvent): void } {
  const listeners = new Set<(e: DesktopEvent) => void>();
  const person = { idleSeconds };
  const signals: DesktopSignals = {
    onBattery: () => false,
    idleSeconds: () => person.idleSeconds,
    thermalState: () => 'unknown',
    subscribe: (l) => (listeners.add(l), () => void listeners.delete(l)),
  };
  return { signals, person, emit: (e) => listeners.forEach((l) => l(e)) };
}

/** Someone typing at the computer: one core, and a quarter more, stay theirs. */
export const atTheComputer = (): DesktopSignals => fakeDesktop(0).signals;

/** Nobody has touched the computer for ten minutes: every core works. */
export const awayFromTheComputer = (): DesktopSignals => fakeDesktop(600).signals;
