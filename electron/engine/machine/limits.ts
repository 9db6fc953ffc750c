// The effective ceiling: the lowest of the machine's limits, each with its reason, and per lane
// the workers its memory allows (and an ml lane's, the GPUs' memory). Facts and a little
// remembered state in; limits, words and the next state out. No I/O and no clock, so every rule
// is a row in a table test.
import { coreLimits, loadDeduction, type Limit, type LimitReason } from './core-limits.js';
import type { MachineFacts } from './facts.js';
import { memoryBudget, type MemoryBudget } from './memory-budget.js';
import { laneMemoryLimits, type LaneMemoryInput } from './memory-limits.js';
import type { BudgetLimit } from './fit-budget.js';
import { nextPresence, type PersonState, type Presence } from './person.js';
import { cardBudgets, laneGpuLimits, type CardBudget, type GpuWorker } from './gpu-limits.js';
import type { LaneCost } from './lane-cost.js';
import { clockMinute } from '../../../shared/format.js';

/** What one pass remembers for the next: where the person was, and the load already taken off. */
export interface LimitsState {
  person: PersonState | null;
  loadOff: number;
}

export const INITIAL_LIMITS_STATE: LimitsState = { person: null, loadOff: 0 };

export interface LaneLimit {
  /** The most workers in service this lane may run: its memory's (and GPU's), within the machine ceiling (its cap is the sizer's). */
  limit: number;
  limitedBy: LimitReason;
  memory: BudgetLimit;
  /** An ml lane's, where the GPUs are read (nvidia-smi); absent elsewhere. */
  gpu?: BudgetLimit;
  text: string;
}

/** What the GPU limit needs beyond the facts: the ml workers on the cards, and each lane's GPU cost. */
export interface GpuInputs {
  workers: readonly GpuWorker[];
  /** The person set CUDA_VISIBLE_DEVICES for Lanes: every worker keeps it, none is placed on a card. */
  pinned?: boolean;
  lanes: ReadonlyMap<string, { measured: number; cost: Pick<LaneCost, 'bytes' | 'rounds'> | null }>;
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
  /** What ml workers may hold on each card; absent where the GPUs are not read. */
  gpus?: CardBudget[];
}

/**
 * Reads of the cards that nvidia-smi refused in a row (it answered, with an error), none having
 * ever answered, before GPU memory counts as not known (a driver nvidia-smi cannot talk to) rather
 * than not read yet. A read that timed out never counts: a loaded machine is not a missing driver.
 */
export const GPU_FAILURES_UNKNOWN = 3;

/** Lanes' own limits, by what binds them: the reason a lane's limit is not the machine's ceiling. */
const LANE_REASONS: readonly LimitReason[] = ['memory', 'gpu'];

/** "GPU not read since 14:02" (the date too when it was not today). */
const notReadSince = (at: number, now: number): string => `GPU not read since ${clockMinute(at, now)}: no more workers until it is`;

/**
 * Per ml lane, what the GPUs' memory allows. Before the cards are first read, one worker (it is
 * measured as soon as they are); where nvidia-smi keeps refusing and never answered, GPU memory
 * is not known and limits nothing, as on a machine without nvidia-smi. After a read that failed,
 * the last good one stands but no lane grows on it: a lane grows again only on a fresh reading
 * with room, and once that reading is too old (cards dropped) each lane keeps what it has.
 */
function gpuLimits(facts: MachineFacts, lanes: readonly LaneMemoryInput[], ceiling: number, gpu: GpuInputs | undefined): { byLane: Map<string, BudgetLimit>; budgets?: CardBudget[] } {
  const g = facts.gpu;
  if (!g || g.source !== 'nvidia' || !gpu || (g.cards === null && g.at === null && (g.refusals ?? 0) >= GPU_FAILURES_UNKNOWN)) return { byLane: new Map() };
  const ml = lanes.filter((l) => l.class === 'ml');
  if (g.cards === null) {
    const text = g.at === null ? 'GPU: reading the cards before starting more' : notReadSince(g.at, facts.at);
    const waiting = { costBytes: null, settled: false, oneAtATime: true, text };
    return { byLane: new Map(ml.map((l) => [l.name, { ...waiting, workers: g.at === null ? Math.max(1, l.workers) : l.workers }])) };
  }
  const budgets = cardBudgets(g.cards, g.override);
  const inputs = ml.map((l) => ({ name: l.name, want: Math.max(0, Math.min(l.cap, ceiling, l.demand)), demand: l.demand, workers: l.workers, measured: gpu.lanes.get(l.name)?.measured ?? 0, cost: gpu.lanes.get(l.name)?.cost ?? null }));
  const byLane = laneGpuLimits(budgets, gpu.workers, inputs);
  if (g.error !== undefined && g.at !== null) {
    for (const l of ml) {
      const fit = byLane.get(l.name);
      if (fit && Number.isFinite(fit.workers) && fit.workers > l.workers) byLane.set(l.name, { ...fit, workers: l.workers, oneAtATime: false, text: notReadSince(g.at, facts.at) });
    }
  }
  return { byLane, budgets };
}

export function machineLimits(facts: MachineFacts, lanes: readonly LaneMemoryInput[], state: LimitsState, gpu?: GpuInputs): { limits: MachineLimits; state: LimitsState } {
  const { presence, state: person } = nextPresence(state.person, facts.person, facts.at);
  const loadOff = facts.cpu.coresFrom === 'override' ? 0 : loadDeduction(state.loadOff, facts.cpu.otherBusy);
  const limits = coreLimits(facts, presence, loadOff);
  const top = limits[0]!;
  const memory = memoryBudget(facts.memory, presence);
  const byMemory = laneMemoryLimits(lanes, memory.bytes, top.workers);
  const byGpu = gpuLimits(facts, lanes, top.workers, gpu);
  const laneLimits = new Map<string, LaneLimit>();
  for (const l of lanes) {
    const m = byMemory.get(l.name)!;
    const g = byGpu.byLane.get(l.name);
    // The GPU is named only when it allows fewer than memory does: the lower limit is the one that binds.
    const byCard = g !== undefined && g.workers < Math.min(m.workers, top.workers);
    const memoryBinds = m.workers < top.workers;
    const limit = Math.min(m.workers, g?.workers ?? Infinity, top.workers);
    const limitedBy = byCard ? 'gpu' : memoryBinds ? 'memory' : top.reason;
    laneLimits.set(l.name, { limit, limitedBy, memory: m, ...(g ? { gpu: g } : {}), text: byCard ? g.text : memoryBinds ? m.text : top.text });
  }
  // Memory (or a GPU's) is what holds Lanes back when some lane has work it may not start for it,
  // and the lanes together may run fewer workers than the ceiling allows.
  const couldRun = lanes.reduce((n, l) => n + Math.min(l.cap, l.demand, laneLimits.get(l.name)!.limit), 0);
  const starved = lanes.filter((l) => LANE_REASONS.includes(laneLimits.get(l.name)!.limitedBy) && Math.min(l.cap, l.demand) > laneLimits.get(l.name)!.limit);
  const laneBinds = starved.length > 0 && couldRun < top.workers;
  const limitedBy = laneBinds ? (starved.every((l) => laneLimits.get(l.name)!.limitedBy === 'gpu') ? 'gpu' : 'memory') : top.reason;
  const text = laneBinds ? starved.map((l) => `${l.name}: ${laneLimits.get(l.name)!.text}`).join('; ') : top.text;
  return {
    limits: { ceiling: top.workers, limitedBy, text, limits, memory, presence, lanes: laneLimits, ...(byGpu.budgets ? { gpus: byGpu.budgets } : {}) },
    state: { person, loadOff },
  };
}
