// How much memory Lanes' workers may use between them: LANES_MEMORY when the person said, else a
// share of what is free for them, smaller while someone is at the machine (as BOINC's 50 % / 90 %),
// and never so much that the machine is planned to within twice the critical floor. Pure.
import type { MachineFacts } from './facts.js';
import type { Presence } from './person.js';
import { aboutBytes } from '../../../shared/format.js';

/** Of the memory that is free for them (available + what they hold already), workers may use this share. */
export const MEMORY_SHARE: Record<'active' | 'away', number> = { active: 0.5, away: 0.9 };

/** Below this much available memory the machine is about to swap hard or kill: 5 % of total, within 256 MiB – 1 GiB. */
export const criticalFloor = (total: number): number => Math.min(2 ** 30, Math.max(256 * 2 ** 20, total * 0.05));

export interface MemoryBudget {
  bytes: number;
  from: 'override' | 'in-use' | 'away';
  text: string;
}

export function memoryBudget(memory: MachineFacts['memory'], presence: Presence): MemoryBudget {
  if (memory.override !== null) return { bytes: memory.override, from: 'override', text: `LANES_MEMORY: ${aboutBytes(memory.override)} for workers` };
  // Nobody known to be there (a headless daemon) counts as away: a server has no person to leave room for.
  const active = presence === 'active';
  const share = MEMORY_SHARE[active ? 'active' : 'away'];
  // What the workers hold is free for them too: counting only `available` would shrink the budget as they grow, and they would chase it down.
  const free = memory.available + memory.usedByLanes;
  const bytes = Math.max(0, Math.min(free * share, free - 2 * criticalFloor(memory.total)));
  return { bytes, from: active ? 'in-use' : 'away', text: `${aboutBytes(bytes)} for workers, ${share * 100} % of free memory${active ? ' while you are at the computer' : ''}` };
}
