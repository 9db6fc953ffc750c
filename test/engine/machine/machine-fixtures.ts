// Machines and lanes for the policy's tables: a plain 8-core, 16 GiB machine on the wall with
// nobody known at it (no desktop session, as under a headless daemon: all 8 cores work),
// changed only where a row says so.
import type { MachineFacts } from '../../../electron/engine/machine/facts.js';
import type { LaneMemoryInput } from '../../../electron/engine/machine/memory-limits.js';

export const MiB = 2 ** 20;
export const GiB = 2 ** 30;

export interface FactsChange {
  at?: number;
  cpu?: Partial<MachineFacts['cpu']>;
  memory?: Partial<MachineFacts['memory']>;
  power?: Partial<MachineFacts['power']>;
  person?: MachineFacts['person'];
}

export function facts(c: FactsChange = {}): MachineFacts {
  return {
    at: c.at ?? 1_000_000,
    cpu: { cores: 8, coresFrom: 'hardware', quota: null, otherBusy: 0, ...c.cpu },
    memory: { total: 16 * GiB, available: 12 * GiB, usedByLanes: 0, override: null, ...c.memory },
    power: { source: 'ac', percent: null, from: 'observed', ...c.power },
    person: c.person === undefined ? null : c.person,
    thermal: 'unknown',
  };
}

export function lane(name: string, o: Partial<LaneMemoryInput> = {}): LaneMemoryInput {
  return { name, class: 'cpu', cap: 7, demand: 0, workers: 0, leaving: 0, measured: 0, cost: null, ...o };
}

/** A cost measured over enough rounds to be believed. */
export const settled = (bytes: number) => ({ bytes, rounds: 10 });
