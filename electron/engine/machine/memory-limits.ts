// How many workers of each lane fit in the memory budget (memory-budget.ts). Per lane, because
// an ml worker holding a model costs a hundred times a shell worker: the lanes' measured costs
// divide the budget. Pure.
import type { LaneClass } from '../../../shared/model.js';
import { SETTLED_ROUNDS, type LaneCost } from './lane-cost.js';
import { aboutBytes } from '../../../shared/format.js';

/** Assumed per worker until it is measured: enough that an unmeasured lane never looks cheap. */
export const PRESUMED_BYTES: Record<LaneClass, number> = { cpu: 256 * 2 ** 20, ml: 2 ** 30 };
/**
 * A worker is added only if this share of the budget stays free after it, while workers are given
 * back only beyond the budget itself: a cost that wobbles near the edge starts and stops nothing.
 */
export const GROW_MARGIN = 0.05;

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

export interface LaneMemoryLimit {
  /** The most workers in service this lane may have for memory. */
  workers: number;
  /** Per worker as counted: the measured cost, or while not settled the presumed one if more. */
  costBytes: number;
  settled: boolean;
  /** Memory is tight and not all its workers are measured: it grows by one measured worker at a time. */
  oneAtATime: boolean;
  text: string;
}

interface Entry {
  l: LaneMemoryInput;
  cost: number;
  settled: boolean;
  /** Workers it could use now: min(cap, ceiling, demand). */
  want: number;
  /** Workers it may have, as the division goes. */
  fit: number;
}

/**
 * Divides the budget in three steps, as cores are shared (share.ts):
 *  1. over the budget, workers go: first those beyond what their lane has work for, then all but
 *     each lane's first, then the rest, the costliest lanes first within each;
 *  2. a lane with work and no worker gets room for one, from other lanes' second and later workers;
 *  3. growth, one worker at a time, fewest first, keeping GROW_MARGIN free. Where memory is tight
 *     (what a lane wants would not fit at twice its cost), it adds a worker only once all it has
 *     are measured, so a cost measured too low overshoots by one worker at most.
 * Steps 2 and 3 keep room for no more workers than the ceiling in all. What no lane wants now,
 * or could not run for cores, is headroom any lane may count on until the next pass.
 */
export function laneMemoryLimits(lanes: readonly LaneMemoryInput[], budget: number, ceiling: number): Map<string, LaneMemoryLimit> {
  const entries: Entry[] = lanes.map((l) => {
    // A cost from its first rounds may have caught every worker before it loaded its model.
    const settled = l.cost !== null && l.cost.rounds >= SETTLED_ROUNDS;
    const cost = settled ? l.cost!.bytes : Math.max(l.cost?.bytes ?? 0, PRESUMED_BYTES[l.class]);
    return { l, cost, settled, want: Math.max(0, Math.min(l.cap, ceiling, l.demand)), fit: l.workers };
  });
  const margin = GROW_MARGIN * budget;
  let free = budget - entries.reduce((n, e) => n + (e.fit + e.l.leaving) * e.cost, 0);
  // Sorted only when something is shed: with room to spare (the usual case) no pass pays for it.
  let costliest: Entry[] | undefined;
  const beyondWork = (e: Entry) => Math.min(e.fit, e.want);
  const beyondFirst = (e: Entry) => (e.want > 0 ? Math.min(e.fit, 1) : 0);
  const shed = (enough: () => boolean, floors: ((e: Entry) => number)[]) => {
    if (enough()) return;
    costliest ??= [...entries].sort((a, b) => b.cost - a.cost || (a.l.name < b.l.name ? -1 : 1));
    for (const floor of floors)
      for (const e of costliest)
        while (!enough() && e.fit > floor(e)) {
          e.fit--;
          free += e.cost;
        }
  };

  shed(() => free >= 0, [beyondWork, beyondFirst, () => 0]);

  const byDemand = (a: Entry, b: Entry) => b.l.demand - a.l.demand || (a.l.name < b.l.name ? -1 : 1);
  // What other lanes' second and later workers hold: counted once, and again only after a shed
  // (a lane given its first worker adds nothing to it). With hundreds of lanes wanting a first
  // worker and room for a few, counting it for each would make every pass quadratic.
  let spare: number | undefined;
  // No room is kept for workers beyond the ceiling: they could not run. With more lanes wanting
  // one than the ceiling has workers, the machine serves them in turns (share.ts), and a lane not
  // served yet may count on what is free when its turn comes.
  let kept = entries.reduce((n, e) => n + e.fit, 0);
  for (const e of entries.filter((x) => x.want > 0 && x.fit === 0).sort(byDemand)) {
    if (kept >= ceiling) break;
    if (free - margin < e.cost) {
      spare ??= entries.reduce((n, d) => n + (d.fit - beyondFirst(d)) * d.cost, 0);
      if (free - margin + spare < e.cost) continue;
      shed(() => free - margin >= e.cost, [beyondWork, beyondFirst]);
      spare = undefined;
    }
    e.fit = 1;
    free -= e.cost;
    kept++;
  }

  const tight = new Set(entries.filter((e) => e.want * e.cost * 2 > free - margin + (e.fit + e.l.leaving) * e.cost));
  const growTo = (e: Entry) => (tight.has(e) ? Math.max(e.l.workers, e.l.measured + 1, e.fit) : Infinity);
  // One worker at a time, fewest first, then most demand: level by level in one fixed order,
  // rather than choosing again among all lanes for each worker. (Free room only shrinks, so a lane
  // that does not fit at one level fits at no later one.)
  const target = (e: Entry) => Math.min(e.want, growTo(e));
  const growing = entries.filter((e) => e.fit < target(e)).sort(byDemand);
  const top = Math.max(...growing.map(target));
  for (let level = Math.min(...growing.map((e) => e.fit)); level < top; level++) {
    for (const e of growing) {
      if (e.fit !== level || e.fit >= target(e) || e.cost > free - margin || kept >= ceiling) continue;
      e.fit++;
      free -= e.cost;
      kept++;
    }
  }

  return new Map(entries.map((e) => [e.l.name, describe(e, Math.max(0, free - margin), growTo(e), budget - margin)]));
}

function describe(e: Entry, spare: number, growTo: number, most: number): LaneMemoryLimit {
  const roomy = e.fit + Math.floor(spare / e.cost);
  const workers = Math.min(roomy, growTo);
  return new Described(e, workers, workers < roomy, most);
}

/** Worded only when read: a pass over hundreds of lanes needs the words of the few held back. */
class Described implements LaneMemoryLimit {
  readonly costBytes: number;
  readonly settled: boolean;

  constructor(
    private readonly e: Entry,
    readonly workers: number,
    readonly oneAtATime: boolean,
    private readonly most: number,
  ) {
    this.costBytes = e.cost;
    this.settled = e.settled;
  }

  get text(): string {
    return wording(this.e, this.workers, this.oneAtATime, this.most);
  }
}

function wording(e: Entry, workers: number, oneAtATime: boolean, most: number): string {
  return e.cost > most
      ? `memory: one of these needs about ${aboutBytes(e.cost)}, ${aboutBytes(Math.max(0, most))} is free for workers`
      : oneAtATime
        ? e.l.cost === null
          ? 'memory: measuring one worker before starting more'
          : 'memory: adding one worker at a time while measuring'
        : `memory for ${workers} of these, ${e.settled ? `about ${aboutBytes(e.cost)} each` : 'not measured yet'}`;
}
