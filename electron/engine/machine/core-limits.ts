// The machine-wide limits on how many workers run at once, each a number with its reason and a
// few words: cores (or the container's quota), battery, the person at the machine, other
// programs' load. Memory is per lane (memory-limits.ts). Pure.
//
// The cores' own limit depends on the person too: while someone is at the computer one core
// stays free for them; while nobody is (away, or no desktop session to be at: a headless daemon)
// every core works, as BOINC uses the whole machine while its owner is away.
import type { MachineFacts } from './facts.js';
import type { Presence } from './person.js';
import type { LimitReason } from '../../../shared/model.js';

export type { LimitReason };

export interface Limit {
  reason: LimitReason;
  /** The most workers all lanes together may run under this limit alone. */
  workers: number;
  text: string;
}

/** When two limits allow the same number, the one that explains more is named: the transient before the fixed. */
export const NAMING_ORDER: readonly LimitReason[] = ['memory', 'battery', 'in-use', 'load', 'container', 'cores'];

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * CPUs Lanes may count on: the cores, or the container's quota when smaller. A quota is rounded
 * down: part of a core cannot run a worker at full speed, and a throttled worker only runs slower
 * than none. LANES_CORES is a budget the person chose, so no quota overrules it.
 */
export function usableCpus(cpu: MachineFacts['cpu']): { cpus: number; container: boolean } {
  const quota = cpu.coresFrom === 'override' || cpu.quota === null ? null : Math.max(1, Math.floor(cpu.quota + 1e-9));
  return quota !== null && quota < cpu.cores ? { cpus: quota, container: true } : { cpus: cpu.cores, container: false };
}

/**
 * Cores other programs keep busy, as a whole number that moves only when the smoothed figure is
 * clearly near a new one (within a quarter) or has moved a whole core: 0.5 ± a little never
 * flips a worker on and off.
 */
export function loadDeduction(prev: number, otherBusy: number): number {
  const nearest = Math.round(otherBusy);
  return Math.abs(otherBusy - nearest) <= 0.25 || Math.abs(otherBusy - prev) >= 1 ? nearest : prev;
}

/** What the cores (or the container's CPUs) allow: all of them while nobody is at the computer, one fewer while someone is. */
export function cpuLimit(cpus: number, container: boolean, presence: Presence): Limit {
  if (presence !== 'active') {
    return container
      ? { reason: 'container', workers: cpus, text: `container: all ${plural(cpus, 'CPU')}, nobody at the computer` }
      : { reason: 'cores', workers: cpus, text: `all ${plural(cpus, 'core')}: nobody at the computer` };
  }
  const kept = Math.max(1, cpus - 1);
  return container
    ? { reason: 'container', workers: kept, text: `container: ${plural(cpus, 'CPU')}, ${plural(kept, 'worker')}` }
    : { reason: 'cores', workers: kept, text: `${plural(cpus, 'core')}: ${plural(kept, 'worker')}, one core kept free` };
}

export function coreLimits(facts: MachineFacts, presence: Presence, loadOff: number): Limit[] {
  const { cpus, container } = usableCpus(facts.cpu);
  const cores = cpuLimit(cpus, container, presence);
  const limits: Limit[] = [cores];
  // On battery the fan and the charge matter whoever is there: half of what one core kept free allows.
  if (facts.power.source === 'battery') limits.push({ reason: 'battery', workers: Math.max(1, Math.floor(Math.max(1, cpus - 1) / 2)), text: 'quiet: on battery' });
  // At the machine, a quarter of the CPUs more stays with the person: typing and scrolling want a core at once, not after a job.
  if (presence === 'active') limits.push({ reason: 'in-use', workers: Math.max(1, Math.floor((cpus * 3) / 4) - 1), text: 'leaving room: you are using the computer' });
  // LANES_CORES already says what Lanes may use; other programs' load is then the person's business.
  if (facts.cpu.coresFrom !== 'override' && loadOff > 0) {
    limits.push({ reason: 'load', workers: Math.max(1, cores.workers - loadOff), text: `other programs keep ${plural(loadOff, 'core')} busy` });
  }
  return limits.sort((a, b) => a.workers - b.workers || NAMING_ORDER.indexOf(a.reason) - NAMING_ORDER.indexOf(b.reason));
}
