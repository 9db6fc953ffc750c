// Fitting workers into a budget, by what one of each lane's workers costs: one rule for the
// machine's memory (one budget for all workers, memory-limits.ts) and for the GPUs' (one budget per
// card, since a model has to fit on one: gpu-limits.ts). Each gives it its budgets and says the
// result in its own words. Pure.
//
// In four steps, as cores are shared (sizer/share.ts):
//  1. over a budget, workers there go: first those beyond what their lane has work for, then all
//     but each lane's first, then the rest, the costliest lanes first within each. What workers
//     on their way out still hold decides nothing here: they free it as they go;
//  2. a lane with work and no worker gets room for one, from other lanes' second and later workers;
//  3. growth, one worker at a time, fewest first, keeping GROW_MARGIN of each budget free, each new
//     worker on the roomiest budget (as a card is chosen, gpu-limits.ts). Where room is tight (what
//     a lane wants would not fit at twice its cost), or its cost is not known or not settled and
//     nothing was presumed for it, it adds a worker only once all it has are measured, so a cost
//     measured too low overshoots by one worker at most;
//  4. what no lane wants now, or could not run for cores, is headroom any lane may count on until
//     the next pass: a lane's limit is what it was given plus what still fits of it.
// Steps 2 and 3 keep room for no more workers than the ceiling in all.

/**
 * A worker is added only if this share of the budget stays free after it, while workers are given
 * back only beyond the budget itself: a cost that wobbles near the edge starts and stops nothing.
 */
export const GROW_MARGIN = 0.05;

/** One budget: the memory's, or one card's. */
export interface Budget {
  /** What the workers may hold there between them. */
  bytes: number;
  /** What the workers in service use there now. */
  inUse: number;
  /** What workers on their way out still hold there: no worker in service goes for it, none starts into it. */
  leaving: number;
}

export interface FitLane {
  name: string;
  /** Workers it could use now: min(cap, ceiling, demand). */
  want: number;
  /** Work it holds (waiting + busy): who is given room first. */
  demand: number;
  /** Its workers in service on each budget, in the budgets' order. */
  workers: readonly number[];
  /** Its workers on their way out. */
  leaving: number;
  /** Of its workers in service, how many were measured while running a job. */
  measured: number;
  /** What one of its workers counts for; null: not known (never measured, and nothing presumed). */
  cost: number | null;
  /** Its cost was measured over enough rounds to be believed. */
  settled: boolean;
}

export interface FitOptions {
  /** The most workers all lanes together may run: no room is kept for more. */
  ceiling: number;
  /**
   * Whether an unsettled cost was raised to a presumed one (memory): then room alone decides
   * whether it grows one at a time. Without one (the GPUs), an unsettled cost always does.
   */
  presumed: boolean;
}

export interface Fit {
  /** The most workers in service it may have. */
  workers: number;
  /** Held to one more measured worker at a time (below what room alone would allow). */
  oneAtATime: boolean;
}

/** What a lane may run for a budget (memory's, or the GPUs'), and why in words. */
export interface BudgetLimit {
  /** The most workers in service this lane may have for it. */
  workers: number;
  /** Per worker as counted: the measured cost (memory: while not settled, the presumed one if more); null until measured. */
  costBytes: number | null;
  settled: boolean;
  /** Room is tight, or its cost not yet known well: it grows by one measured worker at a time. */
  oneAtATime: boolean;
  text: string;
}

interface Entry {
  l: FitLane;
  cost: number;
  /** Its workers on each budget, as the division goes. */
  on: number[];
  /** Of all budgets. */
  fit: number;
}

const sum = (xs: readonly number[]) => xs.reduce((n, x) => n + x, 0);

/** Each lane as the division starts: its workers on each budget. */
function entriesOf(budgets: readonly Budget[], lanes: readonly FitLane[]): Entry[] {
  return lanes.map((l) => {
    const on = budgets.map((_, i) => l.workers[i] ?? 0);
    // A worker counted on no budget (a card no longer read) is counted on the first.
    on[0] = (on[0] ?? 0) + Math.max(0, sum(l.workers) - sum(on));
    return { l, cost: l.cost ?? 0, on, fit: sum(on) };
  });
}

export function fitBudget(budgets: readonly Budget[], lanes: readonly FitLane[], o: FitOptions): Map<string, Fit> {
  const entries = entriesOf(budgets, lanes);
  // A lane with no work, no worker and none leaving takes no part in the division: it is only told
  // what would fit of it. So a pass over hundreds of quiet lanes costs what the busy ones cost.
  const active = entries.filter((e) => e.l.want > 0 || e.fit > 0 || e.l.leaving > 0);
  const room = budgets.map((b) => b.bytes - b.inUse);
  const margin = budgets.map((b) => GROW_MARGIN * b.bytes);
  /** What a new worker may start into on budget i. */
  const growRoom = (i: number) => (room[i] ?? 0) - (budgets[i]?.leaving ?? 0) - (margin[i] ?? 0);
  const roomiest = () => room.reduce((best, _, i) => (growRoom(i) > growRoom(best) ? i : best), 0);
  const fits = (i: number, cost: number) => budgets.length > 0 && growRoom(i) >= cost && growRoom(i) > 0;
  const place = (e: Entry, i: number, n: number) => {
    e.on[i] = (e.on[i] ?? 0) + n;
    e.fit += n;
    room[i] = (room[i] ?? 0) - n * e.cost;
  };

  // Floors a shed goes down to, in turn: what the lane has work for, its first worker, none.
  const beyondWork = (e: Entry) => e.l.want;
  const beyondFirst = (e: Entry) => (e.l.want > 0 ? 1 : 0);
  // Sorted only when something is shed: with room to spare (the usual case) no pass pays for it.
  let costliest: Entry[] | undefined;
  const shed = (i: number, enough: () => boolean, floors: ((e: Entry) => number)[]) => {
    if (enough()) return;
    costliest ??= [...active].sort((a, b) => b.cost - a.cost || (a.l.name < b.l.name ? -1 : 1));
    for (const floor of floors)
      for (const e of costliest) while (!enough() && e.cost > 0 && (e.on[i] ?? 0) > 0 && e.fit > floor(e)) place(e, i, -1);
  };

  budgets.forEach((_, i) => shed(i, () => (room[i] ?? 0) >= 0, [beyondWork, beyondFirst, () => 0]));

  const byDemand = (a: Entry, b: Entry) => b.l.demand - a.l.demand || (a.l.name < b.l.name ? -1 : 1);
  // What other lanes' second and later workers hold on a budget: counted once, and again only
  // after a shed (a lane given its first worker adds nothing to it). With hundreds of lanes
  // wanting a first worker and room for a few, counting it for each would make every pass quadratic.
  const spare = new Map<number, number>();
  const spareOn = (i: number) => spare.get(i) ?? spare.set(i, sum(active.map((d) => Math.max(0, Math.min(d.on[i] ?? 0, d.fit - beyondFirst(d))) * d.cost))).get(i) ?? 0;
  // No room is kept for workers beyond the ceiling: they could not run. With more lanes wanting
  // one than the ceiling has workers, the machine serves them in turns (share.ts), and a lane not
  // served yet may count on what is free when its turn comes.
  let kept = sum(active.map((e) => e.fit));
  for (const e of active.filter((x) => x.l.want > 0 && x.fit === 0).sort(byDemand)) {
    if (kept >= o.ceiling || budgets.length === 0) break;
    const i = roomiest();
    if (!fits(i, e.cost)) {
      if (growRoom(i) + spareOn(i) < e.cost || e.cost === 0) continue;
      shed(i, () => fits(i, e.cost), [beyondWork, beyondFirst]);
      spare.clear();
    }
    place(e, i, 1);
    kept++;
  }

  const free = sum(room) - sum(budgets.map((b) => b.leaving));
  const freeToGrow = free - sum(margin);
  const tight = (e: Entry) => e.l.cost === null || (!e.l.settled && !o.presumed) || e.l.want * e.cost * 2 > freeToGrow + (e.fit + e.l.leaving) * e.cost;
  const growTo = (e: Entry) => (tight(e) ? Math.max(sum(e.l.workers), e.l.measured + 1, e.fit) : Infinity);
  // One worker at a time, fewest first, then most demand: level by level in one fixed order,
  // rather than choosing again among all lanes for each worker. (Room only shrinks, so a lane that
  // does not fit at one level fits at no later one.)
  const target = (e: Entry) => Math.min(e.l.want, growTo(e));
  const growing = active.filter((e) => e.fit < target(e)).sort(byDemand);
  const top = Math.max(...growing.map(target));
  for (let level = Math.min(...growing.map((e) => e.fit)); level < top; level++) {
    for (const e of growing) {
      if (e.fit !== level || e.fit >= target(e) || kept >= o.ceiling) continue;
      const i = roomiest();
      if (!fits(i, e.cost)) continue;
      place(e, i, 1);
      kept++;
    }
  }

  const left = budgets.map((_, i) => Math.max(0, growRoom(i)));
  return new Map(entries.map((e) => [e.l.name, describe(e, left, growTo(e))]));
}

/** What it was given, plus what still fits of it; within one more measured worker where it must be. */
function describe(e: Entry, left: readonly number[], growTo: number): Fit {
  const more = e.cost > 0 ? sum(left.map((r) => Math.floor(r / e.cost))) : left.some((r) => r > 0) ? Infinity : 0;
  const roomy = e.fit + more;
  const workers = Math.min(roomy, growTo);
  return { workers, oneAtATime: workers < roomy };
}
