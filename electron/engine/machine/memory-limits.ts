// How many workers of each lane fit in the memory budget (memory-budget.ts). Per lane, because
// an ml worker holding a model costs a hundred times a shell worker: the lanes' measured costs
// divide the budget, by the one rule that fits workers into a budget (fit-budget.ts). Pure.
import type { LaneClass } from '../../../shared/model.js';
import { SETTLED_ROUNDS, type LaneCost } from './lane-cost.js';
import { aboutBytes } from '../../../shared/format.js';
import { fitBudget, GROW_MARGIN, type BudgetLimit, type Fit } from './fit-budget.js';

/** Assumed per worker until it is measured: enough that an unmeasured lane never looks cheap. */
export const PRESUMED_BYTES: Record<LaneClass, number> = { cpu: 256 * 2 ** 20, ml: 2 ** 30 };

export interface LaneMemoryInput {
  name: string;
  class: LaneClass;
  cap: number;
  /** Work it holds: waiting + busy. */
  demand: number;
  /** Workers in service (idle + busy). */
  workers: number;
  /** Workers on their way out: they still hold memory. */
  leaving: number;
  /** Of its workers in service, how many have been measured while running a job. */
  measured: number;
  /** What its workers typically hold (lane-cost.ts); null: never measured. */
  cost: Pick<LaneCost, 'bytes' | 'rounds'> | null;
}

/**
 * Divides the budget as fit-budget.ts does, the lanes' workers counted at their measured cost, or
 * while it is not settled at least the presumed one: so an unmeasured lane never looks cheap, and
 * room alone says whether it grows one at a time. What no lane wants now, or could not run for
 * cores, is headroom any lane may count on until the next pass.
 */
export function laneMemoryLimits(lanes: readonly LaneMemoryInput[], budget: number, ceiling: number): Map<string, BudgetLimit> {
  const costed = lanes.map((l) => {
    // A cost from its first rounds may have caught every worker before it loaded its model.
    const settled = l.cost !== null && l.cost.rounds >= SETTLED_ROUNDS;
    const cost = settled && l.cost ? l.cost.bytes : Math.max(l.cost?.bytes ?? 0, PRESUMED_BYTES[l.class]);
    return { l, settled, cost };
  });
  const inUse = costed.reduce((n, { l, cost }) => n + l.workers * cost, 0);
  const leaving = costed.reduce((n, { l, cost }) => n + l.leaving * cost, 0);
  const fits = fitBudget(
    [{ bytes: budget, inUse, leaving }],
    costed.map(({ l, settled, cost }) => ({ name: l.name, want: Math.max(0, Math.min(l.cap, ceiling, l.demand)), demand: l.demand, workers: [l.workers], leaving: l.leaving, measured: l.measured, cost, settled })),
    { ceiling, presumed: true },
  );
  const most = budget - GROW_MARGIN * budget;
  return new Map(costed.map(({ l, settled, cost }) => [l.name, new Described(l, fits.get(l.name) ?? { workers: 0, oneAtATime: false }, cost, settled, most)]));
}

/** Worded only when read: a pass over hundreds of lanes needs the words of the few held back. */
class Described implements BudgetLimit {
  readonly workers: number;
  readonly oneAtATime: boolean;

  constructor(
    private readonly l: LaneMemoryInput,
    fit: Fit,
    readonly costBytes: number,
    readonly settled: boolean,
    private readonly most: number,
  ) {
    this.workers = fit.workers;
    this.oneAtATime = fit.oneAtATime;
  }

  get text(): string {
    if (this.costBytes > this.most) return `memory: one of these needs about ${aboutBytes(this.costBytes)}, ${aboutBytes(Math.max(0, this.most))} is free for workers`;
    if (this.oneAtATime) return this.l.cost === null ? 'memory: measuring one worker before starting more' : 'memory: adding one worker at a time while measuring';
    return `memory for ${this.workers} of these, ${this.settled ? `about ${aboutBytes(this.costBytes)} each` : 'not measured yet'}`;
  }
}
