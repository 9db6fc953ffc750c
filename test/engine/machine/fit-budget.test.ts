// Fitting workers into a budget (machine/fit-budget.ts), one rule with two inputs: the machine's
// memory (one budget, unmeasured workers presumed to cost PRESUMED_BYTES) and the GPUs' (one budget
// per card, nothing presumed). One table of divisions for both, as each resource states its
// budget and says the result; then the ramp an ml lane takes under a memory override, from
// knowing nothing to settled, pass by pass and sample by sample, as the engine would drive it.
import { describe, expect, it } from 'vitest';
import { recordCost, type LaneCost } from '../../../electron/engine/machine/lane-cost.js';
import { INITIAL_LIMITS_STATE, machineLimits } from '../../../electron/engine/machine/limits.js';
import { laneMemoryLimits, type LaneMemoryInput } from '../../../electron/engine/machine/memory-limits.js';
import { cardBudgets, laneGpuLimits, type CardBudget, type GpuWorker, type LaneGpuInput } from '../../../electron/engine/machine/gpu-limits.js';
import type { GpuCard } from '../../../electron/engine/machine/gpu.js';
import type { BudgetLimit } from '../../../electron/engine/machine/fit-budget.js';
import { facts, GiB, lane, MiB, settled } from './machine-fixtures.js';

const card = (index: number, totalMiB: number, usedMiB = 0, lanesMiB = 0): GpuCard => ({ index, uuid: `GPU-${index}`, name: 'Card', totalBytes: totalMiB * MiB, usedBytes: usedMiB * MiB, usedByLanes: lanesMiB * MiB });
/** The card: 24,576 MiB, 300 MiB of it the display's. */
const card24 = (othersMiB = 300, lanesMiB = 0) => card(0, 24576, othersMiB + lanesMiB, lanesMiB);
const ml = (o: Partial<LaneGpuInput> = {}): LaneGpuInput => ({ name: 'models', want: 7, workers: 0, measured: 0, cost: null, ...o });
const settledMiB = (mib: number) => ({ bytes: mib * MiB, rounds: 10 });
const provisional = (mib: number) => ({ bytes: mib * MiB, rounds: 1 });
const on = (n: number, cardIndex = 0, o: Partial<GpuWorker> = {}): GpuWorker[] => Array.from({ length: n }, () => ({ lane: 'models', card: cardIndex, bytes: 6000 * MiB, ...o }));
const oneCard = (cards: GpuCard[] = [card24()], override: number | null = null) => cardBudgets(cards, override);

/** A division on either input: the lanes and their budget, as the resource states them. */
type Division =
  | { memory: LaneMemoryInput[]; budget: number; ceiling?: number }
  | { gpu: LaneGpuInput[]; cards: CardBudget[]; workers: GpuWorker[] };

const divide = (d: Division): Map<string, BudgetLimit> => ('memory' in d ? laneMemoryLimits(d.memory, d.budget, d.ceiling ?? 7) : laneGpuLimits(d.cards, d.workers, d.gpu));
const workersOf = (d: Division) => Object.fromEntries([...divide(d)].map(([name, m]) => [name, m.workers]));

describe('fitting workers into a budget, memory or GPU', () => {
  it.each<[string, Division, Record<string, number>, string?]>([
    // Memory: one budget, the lanes' measured or presumed costs.
    ['memory: one measured lane: as many as fit, with a margin', { memory: [lane('ml', { class: 'ml', demand: 40, workers: 3, measured: 3, cost: settled(400 * MiB) })], budget: 1500 * MiB }, { ml: 3 }],
    ['memory: exactly at the budget it keeps what it has…', { memory: [lane('ml', { demand: 40, workers: 4, measured: 4, cost: settled(375 * MiB) })], budget: 1500 * MiB }, { ml: 4 }],
    ['memory: …but does not grow into the margin', { memory: [lane('ml', { demand: 40, workers: 3, measured: 3, cost: settled(375 * MiB) })], budget: 1500 * MiB }, { ml: 3 }],
    ['memory: over the budget it gives back', { memory: [lane('ml', { demand: 40, workers: 5, measured: 5, cost: settled(400 * MiB) })], budget: 1500 * MiB }, { ml: 3 }],
    ['memory: leaving workers still hold memory: nothing starts into it', { memory: [lane('ml', { demand: 40, workers: 1, leaving: 2, measured: 1, cost: settled(400 * MiB) })], budget: 1500 * MiB }, { ml: 1 }],
    ['memory: leaving workers past the budget make no worker in service go', { memory: [lane('ml', { demand: 40, workers: 3, leaving: 2, measured: 3, cost: settled(400 * MiB) })], budget: 1500 * MiB }, { ml: 3 }],
    [
      'memory: over the budget, the costliest lane gives back first',
      { memory: [lane('big', { demand: 9, workers: 2, measured: 2, cost: settled(1 * GiB) }), lane('small', { demand: 9, workers: 4, measured: 4, cost: settled(100 * MiB) })], budget: 2 * GiB },
      // small is tight, so it grows by one measured worker.
      { big: 1, small: 5 },
    ],
    [
      'memory: idle workers nobody has work for go before busy ones, and only down to the budget',
      { memory: [lane('idle', { demand: 0, workers: 3, measured: 3, cost: settled(300 * MiB) }), lane('busy', { demand: 3, workers: 3, measured: 3, cost: settled(200 * MiB) })], budget: 1 * GiB },
      { idle: 1, busy: 3 },
    ],
    [
      'memory: a lane with work and no worker gets room for one from another lane’s later workers',
      { memory: [lane('ml', { class: 'ml', demand: 40, workers: 3, measured: 3, cost: settled(450 * MiB) }), lane('worker', { demand: 5, cost: settled(100 * MiB) })], budget: 1500 * MiB },
      { ml: 2, worker: 1 },
    ],
    ['memory: a worker larger than the whole budget never starts, and takes nothing from others', { memory: [lane('huge', { class: 'ml', demand: 5, cost: settled(4 * GiB) }), lane('w', { demand: 2, workers: 2, measured: 2, cost: settled(100 * MiB) })], budget: 3 * GiB }, { huge: 0, w: 29 }],
    ['memory: unmeasured, with room for all at the presumed cost: all at once', { memory: [lane('worker', { demand: 7 })], budget: 8 * GiB }, { worker: 30 }],
    ['memory: unmeasured and tight: one to measure first', { memory: [lane('ml', { class: 'ml', demand: 40 })], budget: 1500 * MiB }, { ml: 1 }],
    ['memory: tight, one measured of two: no third yet', { memory: [lane('ml', { demand: 40, workers: 2, measured: 1, cost: settled(300 * MiB) })], budget: 1500 * MiB }, { ml: 2 }],
    ['memory: tight, both measured: one more', { memory: [lane('ml', { demand: 40, workers: 2, measured: 2, cost: settled(300 * MiB) })], budget: 1500 * MiB }, { ml: 3 }],
    ['memory: a provisional cost counts at least the presumed', { memory: [lane('ml', { class: 'ml', demand: 40, workers: 1, measured: 1, cost: { bytes: 40 * MiB, rounds: 1 } })], budget: 3 * GiB }, { ml: 2 }],
    ['memory: a budget of nothing: nothing', { memory: [lane('worker', { demand: 3 })], budget: 0 }, { worker: 0 }],
    [
      'memory: a lane too costly to grow does not stop a cheaper one with more workers from growing',
      { memory: [lane('costly', { demand: 9, workers: 1, measured: 1, cost: settled(600 * MiB) }), lane('cheap', { demand: 9, workers: 2, measured: 2, cost: settled(100 * MiB) })], budget: 1100 * MiB },
      { costly: 1, cheap: 3 },
    ],
    [
      'memory: tight, several lanes: each grows only to one beyond what it has measured',
      { memory: [lane('a', { demand: 3, workers: 2, measured: 2, cost: settled(100 * MiB) }), lane('b', { demand: 9, workers: 1, measured: 1, cost: settled(100 * MiB) }), lane('c', { demand: 5, workers: 1, measured: 1, cost: settled(100 * MiB) })], budget: 740 * MiB },
      { a: 3, b: 2, c: 2 },
    ],
    // The GPUs: a budget per card, nothing presumed of a lane never measured.
    ['GPU: never measured: one, measured before any more', { gpu: [ml()], cards: oneCard(), workers: [] }, { models: 1 }, 'GPU: measuring one worker before starting more'],
    ['GPU: never measured, its one worker not yet either', { gpu: [ml({ workers: 1 })], cards: oneCard(), workers: on(1, 0, { bytes: 0 }) }, { models: 1 }, 'GPU: measuring one worker before starting more'],
    ['GPU: a first measurement: one more, then measure it', { gpu: [ml({ workers: 1, measured: 1, cost: provisional(6000) })], cards: oneCard(), workers: on(1) }, { models: 2 }, 'GPU: adding one worker at a time while measuring'],
    ['GPU: the new worker not yet measured: no more', { gpu: [ml({ workers: 2, measured: 1, cost: provisional(6000) })], cards: oneCard(), workers: on(2) }, { models: 2 }, 'GPU: measuring the new worker before starting more'],
    ['GPU: settled at 6,000 MiB: 3 fit with the margin', { gpu: [ml({ workers: 3, measured: 3, cost: settledMiB(6000) })], cards: oneCard(), workers: on(3) }, { models: 3 }, 'the GPU has memory for 3 of these workers, about 5.9 GB each'],
    ['GPU: 4 running, beyond the budget: back to 3', { gpu: [ml({ workers: 4, measured: 4, cost: settledMiB(6000) })], cards: oneCard(), workers: on(4) }, { models: 3 }, 'the GPU has memory for 3 of these workers, about 5.9 GB each'],
    ["GPU: another program's 9,000 MiB on the card: 2", { gpu: [ml({ workers: 3, measured: 3, cost: settledMiB(6000) })], cards: oneCard([card24(9300, 18000)]), workers: on(3) }, { models: 2 }, 'the GPU has memory for 2 of these workers, about 5.9 GB each'],
    ['GPU: one still loading counts at its lane’s cost', { gpu: [ml({ workers: 3, measured: 2, cost: settledMiB(6000) })], cards: oneCard(), workers: [...on(2), ...on(1, 0, { bytes: 0 })] }, { models: 3 }],
    ['GPU: a worker leaving still holds its memory, but no worker in service goes for it', { gpu: [ml({ workers: 3, measured: 3, cost: settledMiB(6000) })], cards: oneCard(), workers: [...on(3), ...on(1, 0, { leaving: true })] }, { models: 3 }],
    ['GPU: a lane whose workers use no GPU is not limited', { gpu: [ml({ workers: 2, measured: 2, cost: settledMiB(0) })], cards: oneCard(), workers: on(2, 0, { bytes: 0 }) }, { models: Infinity }, ''],
    ['GPU: measured at 0 but not yet settled: one at a time still', { gpu: [ml({ workers: 1, measured: 1, cost: provisional(0) })], cards: oneCard(), workers: on(1, 0, { bytes: 0 }) }, { models: 2 }, 'GPU: adding one worker at a time while measuring'],
    ['GPU: one worker needs more than the card has', { gpu: [ml({ cost: settledMiB(30000) })], cards: oneCard(), workers: [] }, { models: 0 }, 'GPU: one of these needs about 29 GB, 22 GB is free for workers'],
    ['GPU: LANES_GPU_MEMORY=12G: 2 kept, but no room to grow into', { gpu: [ml({ workers: 2, measured: 2, cost: settledMiB(6000) })], cards: oneCard([card24()], 12 * GiB), workers: on(2) }, { models: 2 }],
    ['GPU: two 16 GiB cards, 2 on each: 4', { gpu: [ml({ workers: 4, measured: 4, cost: settledMiB(6000) })], cards: oneCard([card(0, 16384), card(1, 16384)]), workers: [...on(2, 0), ...on(2, 1)] }, { models: 4 }, 'the GPUs have memory for 4 of these workers, about 5.9 GB each'],
    ['GPU: two 16 GiB cards, 3 crowded on one: room for 2 there and 2 on the other', { gpu: [ml({ workers: 3, measured: 3, cost: settledMiB(6000) })], cards: oneCard([card(0, 16384), card(1, 16384)]), workers: on(3, 0) }, { models: 4 }],
    ['GPU: plenty of room and little work: no need to go one at a time', { gpu: [ml({ want: 3, workers: 1, measured: 1, cost: settledMiB(2000) })], cards: oneCard([card(0, 81920)]), workers: on(1, 0, { bytes: 2000 * MiB }) }, { models: 38 }],
    [
      'GPU: two ml lanes on one card: what one will start is not counted on by the other',
      { gpu: [ml({ name: 'a', workers: 2, measured: 2, cost: settledMiB(6000) }), ml({ name: 'b', want: 3, workers: 0, cost: settledMiB(4000) })], cards: oneCard([card24(300, 12000)]), workers: on(2, 0, { lane: 'a' }) },
      { a: 3, b: 1 },
    ],
    [
      'GPU: over a card, the costliest lane gives back first, as in memory',
      { gpu: [ml({ name: 'big', workers: 3, measured: 3, cost: settledMiB(6000) }), ml({ name: 'small', workers: 2, measured: 2, cost: settledMiB(1000) })], cards: oneCard([card(0, 16384)]), workers: [...on(3, 0, { lane: 'big' }), ...on(2, 0, { lane: 'small', bytes: 1000 * MiB })] },
      { big: 2, small: 3 },
    ],
  ])('%s', (_what, division, expected, text) => {
    expect(workersOf(division)).toEqual(expected);
    if (text !== undefined) expect([...divide(division).values()][0]!.text).toBe(text);
  });

  it('three hundred lanes with work and room for all: one each, whatever their order', () => {
    const lanes = Array.from({ length: 300 }, (_, i) => lane(`l-${i}`, { cap: 1, demand: 1 + (i % 7), cost: settled(10 * MiB) }));
    const l = workersOf({ memory: lanes, budget: 64 * GiB, ceiling: 2 });
    expect(Object.values(l).every((n) => n >= 1)).toBe(true);
  });

  it('more lanes with work than the ceiling has workers, with room for far fewer than all: none is held for memory', () => {
    // 200 unmeasured shell lanes (256 MB presumed each) and 20 GB: room for 78 of them at once,
    // but a ceiling of 2 runs two at a time, in turns; each lane, when its turn comes, fits.
    const lanes = [lane('busy', { cap: 1, demand: 5, workers: 1, measured: 1 }), ...Array.from({ length: 199 }, (_, i) => lane(`l-${i}`, { cap: 1, demand: 5 }))];
    const l = workersOf({ memory: lanes, budget: 20 * GiB, ceiling: 2 });
    expect(Object.entries(l).filter(([, n]) => n < 2)).toEqual([]);
  });

  it.each<[string, Division, number]>([
    ['memory', { memory: [lane('a', { demand: 10, cost: settled(300 * MiB) }), lane('b', { demand: 10, cost: settled(300 * MiB) })], budget: 1500 * MiB, ceiling: 10 }, 4],
    ['GPU', { gpu: [ml({ name: 'a', want: 10, cost: settledMiB(6000) }), ml({ name: 'b', want: 10, cost: settledMiB(6000) })], cards: oneCard(), workers: [] }, 3],
  ])('%s: two lanes wanting to grow never plan on the same room', (_what, division, most) => {
    const l = workersOf(division);
    expect((l.a ?? 0) + (l.b ?? 0)).toBeLessThanOrEqual(most);
    expect(Math.abs((l.a ?? 0) - (l.b ?? 0))).toBeLessThanOrEqual(1);
  });

  it('memory says what holds each lane, in words', () => {
    const text = (l: LaneMemoryInput, budget: number) => laneMemoryLimits([l], budget, 7).get(l.name)?.text;
    expect(text(lane('ml', { class: 'ml', demand: 40 }), 3 * GiB)).toBe('memory: measuring one worker before starting more');
    expect(text(lane('ml', { class: 'ml', demand: 40 }), 1500 * MiB)).toBe('memory for 1 of these, not measured yet');
    expect(text(lane('known', { demand: 40, workers: 1, measured: 0, cost: settled(300 * MiB) }), 3 * GiB)).toBe('memory: adding one worker at a time while measuring');
    expect(text(lane('huge', { demand: 1, cost: settled(4 * GiB) }), 3 * GiB)).toBe('memory: one of these needs about 4.0 GB, 2.9 GB is free for workers');
    expect(text(lane('fine', { demand: 1, cost: settled(10 * MiB) }), 3 * GiB)).toBe('memory for 291 of these, about 10 MB each');
  });
});

/**
 * LANES_CORES=8 LANES_MEMORY=1500M, an ml lane at cap 7 with 40 waiting, whose workers hold
 * `trueCost` once loaded. Between two samples the sizer passes several times (jobs finish, the
 * tick) and starts what the limit allows at once; each sample measures every worker, and one that
 * started since the last sample is caught still loading, at `firstSeen` of its cost.
 */
function ramp(trueCost: number, firstSeen: number, rounds = 15) {
  const f = facts({ cpu: { coresFrom: 'override' }, memory: { override: 1500 * MiB } });
  let state = INITIAL_LIMITS_STATE;
  let cost: LaneCost | null = null;
  let workers = 0;
  let measured = 0;
  let most = 0;
  let limitedBy = '';
  for (let round = 1; round <= rounds; round++) {
    for (let pass = 0; pass < 3; pass++) {
      const r = machineLimits(f, [lane('ml', { class: 'ml', cap: 7, demand: 40, workers, measured, cost })], state);
      state = r.state;
      workers = Math.min(7, r.limits.lanes.get('ml')?.limit ?? 0);
      limitedBy = r.limits.limitedBy;
      most = Math.max(most, workers);
    }
    const at = round * 15_000;
    for (let i = 0; i < workers; i++) cost = recordCost(cost, i < measured ? trueCost : trueCost * firstSeen, at);
    measured = workers;
  }
  return { most, settledAt: workers, limitedBy };
}

describe('an ml lane of 400 MB workers under LANES_MEMORY=1500M', () => {
  it.each([
    [400 * MiB, 1],
    [450 * MiB, 1],
    [450 * MiB, 0.5],
    [450 * MiB, 0.1],
    [490 * MiB, 0.02],
  ])('holding %d bytes, first seen at %f of it: never more than 4, settles at 3 or fewer, memory named', (trueCost, firstSeen) => {
    const r = ramp(trueCost, firstSeen);
    expect(r.most).toBeLessThanOrEqual(4);
    expect(r.settledAt).toBeLessThanOrEqual(3);
    expect(r.settledAt).toBeGreaterThanOrEqual(Math.floor((1500 * MiB * 0.95) / trueCost));
    expect(r.limitedBy).toBe('memory');
  });
});
