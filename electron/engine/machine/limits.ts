// The effective ceiling: the lowest of the machine's limits, each with its reason, and per lane
// the workers its memory allows. Facts and a little remembered state in; limits, words and the
// next state out. No I/O and no clock, so every rule is a row in a table test.
import { coreLimits, loadDeduction, type Limit, type LimitReason } from './core-limits.js';
import type { MachineFacts } from './facts.js';
import { memoryBudget, type MemoryBudget } from './memory-budget.js';
import { laneMemoryLimits, type LaneMemoryInput, type LaneMemoryLimit } from './memory-limits.js';
import { nextPresence, type PersonState, type Presence } from './person.js';

/** What one pass remembers for the next: where the person was, and the load already taken off. */
export interface LimitsState {
  person: PersonState | null;
  loadOff: number;
}

export const INITIAL_LIMITS_STATE: LimitsState = { person: null, loadOff: 0 };

export interface LaneLimit {
  /** The most workers in service this lane may run: its memory's, within the machine ceiling (its cap is the sizer's). */
  limit: number;
  limitedBy: LimitReason;
  memory: LaneMemoryLimit;
  text: string;
}

export interface MachineLimits {
  /** The most workers all lanes together may run now. */
  ceiling: number;
  /** What holds Lanes back most: the ceiling's reason, or memory when it keeps the lanes that have work below the ceiling. */
  limitedBy: LimitReason;
  text: string;
  /** Every machine-wide limit considered, lowest first. */
  limits: Limit[];
  memory: MemoryBudget;
  presence: Presence;
  lanes: Map<string, LaneLimit>;
}

export function machineLimits(facts: MachineFacts, lanes: readonly LaneMemoryInput[], state: LimitsState): { limits: MachineLimits; state: LimitsState } {
  const { presence, state: person } = nextPresence(state.person, facts.person, facts.at);
  const loadOff = facts.cpu.coresFrom === 'override' ? 0 : loadDeduction(state.loadOff, facts.cpu.otherBusy);
  const limits = coreLimits(facts, presence, loadOff);
  const top = limits[0]!;
  const memory = memoryBudget(facts.memory, presence);
  const byMemory = laneMemoryLimits(lanes, memory.bytes, top.workers);
  const laneLimits = new Map<string, LaneLimit>();
  for (const l of lanes) {
    const m = byMemory.get(l.name)!;
    const held = m.workers < top.workers;
    laneLimits.set(l.name, { limit: Math.min(m.workers, top.workers), limitedBy: held ? 'memory' : top.reason, memory: m, text: held ? m.text : top.text });
  }
  // Memory is what holds Lanes back when some lane has work it may not start for memory, and the
  // lanes together may run fewer workers than the ceiling allows.
  const couldRun = lanes.reduce((n, l) => n + Math.min(l.cap, l.demand, laneLimits.get(l.name)!.limit), 0);
  const starved = lanes.filter((l) => laneLimits.get(l.name)!.limitedBy === 'memory' && Math.min(l.cap, l.demand) > laneLimits.get(l.name)!.limit);
  const memoryBinds = starved.length > 0 && couldRun < top.workers;
  const limitedBy = memoryBinds ? 'memory' : top.reason;
  const text = memoryBinds ? starved.map((l) => `${l.name}: ${laneLimits.get(l.name)!.text}`).join('; ') : top.text;
  return {
    limits: { ceiling: top.workers, limitedBy, text, limits, memory, presence, lanes: laneLimits },
    state: { person, loadOff },
  };
}
