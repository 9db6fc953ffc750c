// How many workers of each ml lane fit in the GPUs' memory, by what one of its workers was
// measured to hold there (the sum over its process tree's pids, lane-cost.ts keeps it): the one
// rule that fits workers into a budget (fit-budget.ts), as the memory limit uses it, one budget
// per card, since a model has to fit on one. Nothing is presumed of a lane never measured: it
// starts one worker and measures it before any more, and one whose cost is provisional grows one
// measured worker at a time. Each worker is counted on the card it was given (CUDA_VISIBLE_DEVICES,
// see pickCard). Pure.
import { aboutBytes, plural } from '../../../shared/format.js';
import type { GpuCard } from './gpu.js';
import { SETTLED_ROUNDS, type LaneCost } from './lane-cost.js';
import { fitBudget, GROW_MARGIN, type BudgetLimit } from './fit-budget.js';

/** Kept free on each card for the driver, CUDA contexts and fragmentation: 2 % of it, within 256 MiB – 1 GiB. */
export const gpuReserve = (total: number): number => Math.min(2 ** 30, Math.max(256 * 2 ** 20, total * 0.02));
/** A lane measured (and settled) below this on the GPU does not use it: the GPU does not limit it. */
export const GPU_COST_MIN = 16 * 2 ** 20;

/** What Lanes' ml workers may hold on one card, between them. */
export interface CardBudget {
  index: number;
  uuid: string;
  bytes: number;
}

/**
 * Per card: what is free for the workers (what other programs hold there counts against it, what
 * the workers hold does not), less the reserve. LANES_GPU_MEMORY instead: that much between them,
 * shared over the cards as their free memory is.
 */
export function cardBudgets(cards: readonly GpuCard[], override: number | null): CardBudget[] {
  const free = cards.map((c) => ({ c, free: Math.max(0, c.totalBytes - Math.max(0, c.usedBytes - Math.min(c.usedByLanes, c.usedBytes))) }));
  const sum = free.reduce((n, f) => n + f.free, 0);
  return free.map(({ c, free: f }) => ({
    index: c.index,
    uuid: c.uuid,
    bytes: override !== null ? (sum > 0 ? (override * f) / sum : override / cards.length) : Math.max(0, f - gpuReserve(c.totalBytes)),
  }));
}

/** A live worker of an ml lane: the card it was given, and what it holds there as last measured. */
export interface GpuWorker {
  lane: string;
  card: number;
  bytes: number;
  /** On its way out (draining, stopping): it still holds its memory, but no worker in service goes for it. */
  leaving?: boolean;
}

export interface LaneGpuInput {
  name: string;
  /** Workers it could use now: min(cap, ceiling, demand). */
  want: number;
  /** Work it holds (waiting + busy): who is given room first; absent: what it wants. */
  demand?: number;
  /** Workers in service (idle + busy). */
  workers: number;
  /** Of those, how many were measured on the GPU while running a job. */
  measured: number;
  /** What one of its workers typically holds on the GPU; null: never measured. */
  cost: Pick<LaneCost, 'bytes' | 'rounds'> | null;
}

const NO_LIMIT: BudgetLimit = { workers: Infinity, costBytes: null, settled: true, oneAtATime: false, text: '' };

/** Counted per worker: what it holds now, or its lane's typical cost if more (one still loading holds little yet). */
function inUseOnCards(budgets: readonly CardBudget[], workers: readonly GpuWorker[], costs: ReadonlyMap<string, number>): number[] {
  const inUse = budgets.map(() => 0);
  for (const w of workers) {
    const i = budgets.findIndex((b) => b.index === w.card);
    if (i >= 0) inUse[i] = (inUse[i] ?? 0) + Math.max(w.bytes, costs.get(w.lane) ?? 0);
  }
  return inUse;
}

/**
 * Per card, what the workers in service hold decides who must go, and what leaving ones still
 * hold only keeps new ones from starting. Lanes that use no GPU are not limited.
 */
export function laneGpuLimits(budgets: readonly CardBudget[], workers: readonly GpuWorker[], lanes: readonly LaneGpuInput[], ceiling = Infinity): Map<string, BudgetLimit> {
  const costs = new Map(lanes.flatMap((l) => (l.cost ? [[l.name, l.cost.bytes] as const] : [])));
  const inService = workers.filter((w) => !w.leaving);
  const inUse = inUseOnCards(budgets, inService, costs);
  const leaving = inUseOnCards(budgets, workers.filter((w) => w.leaving), costs);
  const settledOf = (l: LaneGpuInput) => l.cost !== null && l.cost.rounds >= SETTLED_ROUNDS;
  const limited = lanes.filter((l) => !(settledOf(l) && (l.cost?.bytes ?? 0) < GPU_COST_MIN));
  const fits = fitBudget(
    budgets.map((b, i) => ({ bytes: b.bytes, inUse: inUse[i] ?? 0, leaving: leaving[i] ?? 0 })),
    limited.map((l) => ({
      name: l.name,
      want: l.want,
      demand: l.demand ?? l.want,
      // Counted where they are; one on a card no longer read, on the first.
      workers: budgets.map((b, i) => inService.filter((w) => w.lane === l.name && w.card === b.index).length + (i === 0 ? Math.max(0, l.workers - inService.filter((w) => w.lane === l.name && budgets.some((c) => c.index === w.card)).length) : 0)),
      leaving: workers.filter((w) => w.lane === l.name && w.leaving).length,
      measured: l.measured,
      cost: l.cost?.bytes ?? null,
      settled: settledOf(l),
    })),
    { ceiling, presumed: false },
  );
  const most = Math.max(0, ...budgets.map((b) => b.bytes - GROW_MARGIN * b.bytes));
  const out = new Map<string, BudgetLimit>(lanes.map((l) => [l.name, NO_LIMIT]));
  for (const l of limited) {
    const fit = fits.get(l.name) ?? { workers: 0, oneAtATime: false };
    const cost = l.cost?.bytes ?? null;
    out.set(l.name, { workers: fit.workers, costBytes: cost, settled: settledOf(l), oneAtATime: fit.oneAtATime, text: wording(l, cost, fit.workers, fit.oneAtATime, settledOf(l), most, budgets.length) });
  }
  return out;
}

function wording(l: LaneGpuInput, cost: number | null, workers: number, oneAtATime: boolean, settled: boolean, most: number, cards: number): string {
  const the = cards > 1 ? 'the GPUs have' : 'the GPU has';
  if (cost === null) return 'GPU: measuring one worker before starting more';
  if (cost > most) return `GPU: one of these needs about ${aboutBytes(cost)}, ${aboutBytes(most)} is free for workers${cards > 1 ? ' on the roomiest card' : ''}`;
  if (oneAtATime) return l.measured < l.workers ? 'GPU: measuring the new worker before starting more' : 'GPU: adding one worker at a time while measuring';
  return `${the} memory for ${plural(workers, 'of these workers', 'of these workers')}, ${settled ? `about ${aboutBytes(cost)} each` : 'not measured yet'}`;
}

/**
 * The card a new worker of a lane is given: the one with the most room left after what the
 * workers there hold, so its model lands where it fits. Null with fewer than two cards: there is
 * nothing to choose, and CUDA's default is that one.
 */
export function pickCard(budgets: readonly CardBudget[], workers: readonly GpuWorker[], costs: ReadonlyMap<string, number>): CardBudget | null {
  if (budgets.length < 2) return null;
  const inUse = inUseOnCards(budgets, workers, costs);
  let best: CardBudget | null = null;
  let bestRoom = -Infinity;
  for (const [i, card] of budgets.entries()) {
    const room = card.bytes - (inUse[i] ?? 0);
    if (room > bestRoom) [best, bestRoom] = [card, room];
  }
  return best;
}

/**
 * The cards the new workers of a pass are given, start by start in the order they are made: each
 * by pickCard, counting the ones placed before it (at their lane's cost) where they will be. An
 * empty list for a start that is not an ml lane's, or where there is nothing to choose.
 */
export function cardsForStarts(starts: readonly { lane: string; count: number }[], budgets: readonly CardBudget[], workers: readonly GpuWorker[], costs: ReadonlyMap<string, number>): CardBudget[][] {
  const placed = [...workers];
  return starts.map(({ lane, count }) => {
    const cards: CardBudget[] = [];
    for (let i = 0; i < count; i++) {
      const card = pickCard(budgets, placed, costs);
      if (!card) break;
      cards.push(card);
      placed.push({ lane, card: card.index, bytes: 0 });
    }
    return cards;
  });
}
