// How many workers of each ml lane fit in the GPUs' memory, by what one of its workers was
// measured to hold there (the sum over its process tree's pids, lane-cost.ts keeps it). The same
// rules as the memory limit (memory-limits.ts): a margin to grow into, workers given back only
// beyond the budget itself, one measured worker at a time while the cost is provisional or the
// room is tight, and a lane never measured starts one worker and measures it before any more.
// Per card, since a model has to fit on one: each worker is counted on the card it was given
// (CUDA_VISIBLE_DEVICES, see pickCard). Pure.
import { aboutBytes, plural } from '../../../shared/format.js';
import type { GpuCard } from './gpu.js';
import { SETTLED_ROUNDS, type LaneCost } from './lane-cost.js';
import { GROW_MARGIN } from './memory-limits.js';

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
  const free = cards.map((c) => Math.max(0, c.totalBytes - Math.max(0, c.usedBytes - Math.min(c.heldByLanes, c.usedBytes))));
  const sum = free.reduce((n, f) => n + f, 0);
  return cards.map((c, i) => ({
    index: c.index,
    uuid: c.uuid,
    bytes: override !== null ? (sum > 0 ? (override * free[i]!) / sum : override / cards.length) : Math.max(0, free[i]! - gpuReserve(c.totalBytes)),
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
  /** Workers in service (idle + busy). */
  workers: number;
  /** Of those, how many were measured on the GPU while running a job. */
  measured: number;
  /** What one of its workers typically holds on the GPU; null: never measured. */
  cost: Pick<LaneCost, 'bytes' | 'rounds'> | null;
}

export interface LaneGpuLimit {
  /** The most workers in service it may have for the GPUs' memory (Infinity: they do not limit it). */
  workers: number;
  /** Per worker as counted; null until measured. */
  costBytes: number | null;
  settled: boolean;
  oneAtATime: boolean;
  text: string;
}

const NO_LIMIT: LaneGpuLimit = { workers: Infinity, costBytes: null, settled: true, oneAtATime: false, text: '' };

/** Counted per worker: what it holds now, or its lane's typical cost if more (one still loading holds little yet). */
function heldOnCards(budgets: readonly CardBudget[], workers: readonly GpuWorker[], costs: ReadonlyMap<string, number>): number[] {
  const held = budgets.map(() => 0);
  for (const w of workers) {
    const i = budgets.findIndex((b) => b.index === w.card);
    if (i >= 0) held[i]! += Math.max(w.bytes, costs.get(w.lane) ?? 0);
  }
  return held;
}

/**
 * Lanes in turn, fewest workers first: each keeps what fits within the budget (no margin), may
 * grow into what is left beyond the margin, and what it will start is taken off the roomiest cards
 * for the next. Lanes that use no GPU are not limited.
 */
export function laneGpuLimits(budgets: readonly CardBudget[], workers: readonly GpuWorker[], lanes: readonly LaneGpuInput[]): Map<string, LaneGpuLimit> {
  const costs = new Map(lanes.filter((l) => l.cost).map((l) => [l.name, l.cost!.bytes]));
  // What workers in service hold decides who must go; what leaving ones still hold only keeps new ones from starting.
  const held = heldOnCards(budgets, workers.filter((w) => !w.leaving), costs);
  const leaving = heldOnCards(budgets, workers.filter((w) => w.leaving), costs);
  const room = budgets.map((b, i) => b.bytes - held[i]!);
  const margin = budgets.map((b) => GROW_MARGIN * b.bytes);
  const most = Math.max(0, ...budgets.map((b, i) => b.bytes - margin[i]!));
  const out = new Map<string, LaneGpuLimit>();
  const order = [...lanes].sort((a, b) => a.workers - b.workers || b.want - a.want || (a.name < b.name ? -1 : 1));
  for (const l of order) {
    const settled = l.cost !== null && l.cost.rounds >= SETTLED_ROUNDS;
    const cost = l.cost?.bytes ?? null;
    if (settled && cost! < GPU_COST_MIN) {
      out.set(l.name, NO_LIMIT);
      continue;
    }
    let kept = l.workers;
    if (cost !== null && cost > 0) {
      // Over the budget on a card: its workers there beyond what fits go (the sizer stops idle ones first).
      budgets.forEach((b, i) => {
        const mine = workers.filter((w) => w.lane === l.name && w.card === b.index && !w.leaving).length;
        const shed = room[i]! < 0 ? Math.min(mine, Math.ceil(-room[i]! / cost)) : 0;
        kept -= shed;
        room[i]! += shed * cost;
      });
    }
    const growRoom = room.map((r, i) => Math.max(0, r - leaving[i]! - margin[i]!));
    const extra = cost === null || cost === 0 ? (growRoom.some((r) => r > 0) ? Infinity : 0) : growRoom.reduce((n, r) => n + Math.floor(r / cost), 0);
    const roomy = kept + extra;
    const free = room.reduce((n, r, i) => n + Math.max(0, r - leaving[i]!), 0);
    const tight = cost === null || l.want * cost * 2 > free + kept * cost;
    const oneAtATime = !settled || tight;
    const growTo = oneAtATime ? Math.max(kept, l.measured + 1) : Infinity;
    const limit = Math.min(roomy, growTo);
    // What it will start is placed as pickCard places it, so the next lane counts on what is left.
    for (let n = Math.max(0, Math.min(l.want, limit) - l.workers); n > 0 && cost !== null; n--) {
      const i = room.indexOf(Math.max(...room));
      room[i]! -= cost;
    }
    out.set(l.name, { workers: limit, costBytes: cost, settled, oneAtATime: limit < roomy, text: wording(l, cost, limit, limit < roomy, settled, most, budgets.length) });
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
  const held = heldOnCards(budgets, workers, costs);
  let best = 0;
  for (let i = 1; i < budgets.length; i++) if (budgets[i]!.bytes - held[i]! > budgets[best]!.bytes - held[best]!) best = i;
  return budgets[best]!;
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
