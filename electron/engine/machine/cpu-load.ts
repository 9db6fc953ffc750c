// How many cores other programs keep busy. The machine's busy CPU time (all cores, from the OS's
// own counters; inside a CPU quota, the container's cgroup) less what Lanes used itself (the
// engine, and its workers' process trees as the worker meter measured them), over the time
// between two looks, smoothed so a compile that lasts ten seconds does not stop workers.
// Why not the load average: it counts runnable processes, not CPU used (a process waiting on the
// disk counts as one), it includes Lanes' own workers with no way to take them out, and Windows has none.
import { cpus } from 'node:os';
import { readCgroupCpuMs, type CgroupLimits } from './cgroup.js';

/** Smoothing time constant: a change that lasts this long has moved the figure by about two thirds. */
export const LOAD_SMOOTHING_MS = 60_000;

/** CPU-ms spent busy so far: the container's under a quota, else every core's (user, nice, system, irq). */
export function busyCpuMs(usage: CgroupLimits['cpuUsage']): number {
  if (usage) {
    const ms = readCgroupCpuMs(usage);
    if (ms !== null) return ms;
  }
  let ms = 0;
  for (const c of cpus()) ms += c.times.user + c.times.nice + c.times.sys + c.times.irq;
  return ms;
}

export interface LoadReading {
  /** Monotonic ms. */
  at: number;
  /** CPU-ms busy so far (busyCpuMs). */
  busyMs: number;
  /** Smoothed cores busy with other programs; null until two readings exist. */
  otherBusy: number | null;
}

/**
 * The next reading, given the last one and what Lanes itself used since (`ownMs`). Pure.
 * `cores` bounds the figure: counters that jump (a resumed VM) cannot claim more than the machine.
 */
export function nextLoad(prev: LoadReading | null, now: { at: number; busyMs: number; ownMs: number }, cores: number): LoadReading {
  if (prev === null || now.at <= prev.at || now.busyMs < prev.busyMs) return { at: now.at, busyMs: now.busyMs, otherBusy: prev?.otherBusy ?? null };
  const dt = now.at - prev.at;
  const others = Math.min(cores, Math.max(0, (now.busyMs - prev.busyMs - now.ownMs) / dt));
  const alpha = 1 - Math.exp(-dt / LOAD_SMOOTHING_MS);
  const otherBusy = prev.otherBusy === null ? others : prev.otherBusy + alpha * (others - prev.otherBusy);
  return { at: now.at, busyMs: now.busyMs, otherBusy };
}
