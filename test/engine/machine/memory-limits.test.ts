// Dividing the memory budget between lanes by what their workers cost: one table of divisions,
// and the ramp an ml lane takes from knowing nothing to settled, pass by pass and sample by
// sample, as the engine would drive it.
import { describe, expect, it } from 'vitest';
import { recordCost, type LaneCost } from '../../../electron/engine/machine/lane-cost.js';
import { INITIAL_LIMITS_STATE, machineLimits } from '../../../electron/engine/machine/limits.js';
import { laneMemoryLimits, type LaneMemoryInput } from '../../../electron/engine/machine/memory-limits.js';
import { facts, GiB, lane, MiB, settled } from './machine-fixtures.js';

const limitsOf = (lanes: LaneMemoryInput[], budget: number, ceiling = 7) =>
  Object.fromEntries([...laneMemoryLimits(lanes, budget, ceiling)].map(([name, m]) => [name, m.workers]));

describe('dividing the budget', () => {
  it.each<[string, LaneMemoryInput[], number, Record<string, number>]>([
    ['one measured lane: as many as fit, with a margin', [lane('ml', { class: 'ml', demand: 40, workers: 3, measured: 3, cost: settled(400 * MiB) })], 1500 * MiB, { ml: 3 }],
    ['exactly at the budget it keeps what it has…', [lane('ml', { demand: 40, workers: 4, measured: 4, cost: settled(375 * MiB) })], 1500 * MiB, { ml: 4 }],
    ['…but does not grow into the margin', [lane('ml', { demand: 40, workers: 3, measured: 3, cost: settled(375 * MiB) })], 1500 * MiB, { ml: 3 }],
    ['over the budget it gives back', [lane('ml', { demand: 40, workers: 5, measured: 5, cost: settled(400 * MiB) })], 1500 * MiB, { ml: 3 }],
    ['leaving workers still hold memory', [lane('ml', { demand: 40, workers: 1, leaving: 2, measured: 1, cost: settled(400 * MiB) })], 1500 * MiB, { ml: 1 }],
    [
      'over the budget, the costliest lane gives back first',
      [lane('big', { demand: 9, workers: 2, measured: 2, cost: settled(1 * GiB) }), lane('small', { demand: 9, workers: 4, measured: 4, cost: settled(100 * MiB) })],
      2 * GiB,
      // small is tight, so it grows by one measured worker.
      { big: 1, small: 5 },
    ],
    [
      'idle workers nobody has work for go before busy ones, and only down to the budget',
      [lane('idle', { demand: 0, workers: 3, measured: 3, cost: settled(300 * MiB) }), lane('busy', { demand: 3, workers: 3, measured: 3, cost: settled(200 * MiB) })],
      1 * GiB,
      { idle: 1, busy: 3 },
    ],
    [
      'a lane with work and no worker gets room for one from another lane’s later workers',
      [lane('ml', { class: 'ml', demand: 40, workers: 3, measured: 3, cost: settled(450 * MiB) }), lane('worker', { demand: 5, cost: settled(100 * MiB) })],
      1500 * MiB,
      { ml: 2, worker: 1 },
    ],
    ['a worker larger than the whole budget never starts, and takes nothing from others', [lane('huge', { class: 'ml', demand: 5, cost: settled(4 * GiB) }), lane('w', { demand: 2, workers: 2, measured: 2, cost: settled(100 * MiB) })], 3 * GiB, { huge: 0, w: 29 }],
    ['unmeasured, with room for all at the presumed cost: all at once', [lane('worker', { demand: 7 })], 8 * GiB, { worker: 30 }],
    ['unmeasured and tight: one to measure first', [lane('ml', { class: 'ml', demand: 40 })], 1500 * MiB, { ml: 1 }],
    ['tight, one measured of two: no third yet', [lane('ml', { demand: 40, workers: 2, measured: 1, cost: settled(300 * MiB) })], 1500 * MiB, { ml: 2 }],
    ['tight, both measured: one more', [lane('ml', { demand: 40, workers: 2, measured: 2, cost: settled(300 * MiB) })], 1500 * MiB, { ml: 3 }],
    ['a provisional cost counts at least the presumed', [lane('ml', { class: 'ml', demand: 40, workers: 1, measured: 1, cost: { bytes: 40 * MiB, rounds: 1 } })], 3 * GiB, { ml: 2 }],
    ['a budget of nothing: nothing', [lane('worker', { demand: 3 })], 0, { worker: 0 }],
    [
      'a lane too costly to grow does not stop a cheaper one with more workers from growing',
      [lane('costly', { demand: 9, workers: 1, measured: 1, cost: settled(600 * MiB) }), lane('cheap', { demand: 9, workers: 2, measured: 2, cost: settled(100 * MiB) })],
      1100 * MiB,
      { costly: 1, cheap: 3 },
    ],
    [
      'tight, several lanes: each grows only to one beyond what it has measured',
      [lane('a', { demand: 3, workers: 2, measured: 2, cost: settled(100 * MiB) }), lane('b', { demand: 9, workers: 1, measured: 1, cost: settled(100 * MiB) }), lane('c', { demand: 5, workers: 1, measured: 1, cost: settled(100 * MiB) })],
      740 * MiB,
      { a: 3, b: 2, c: 2 },
    ],
  ])('%s', (_what, lanes, budget, expected) => {
    expect(limitsOf(lanes, budget)).toEqual(expected);
  });

  it('three hundred lanes with work and room for all: one each, whatever their order', () => {
    const lanes = Array.from({ length: 300 }, (_, i) => lane(`l-${i}`, { cap: 1, demand: 1 + (i % 7), cost: settled(10 * MiB) }));
    const l = limitsOf(lanes, 64 * GiB, 2);
    expect(Object.values(l).every((n) => n >= 1)).toBe(true);
  });

  it('more lanes with work than the ceiling has workers, with room for far fewer than all: none is held for memory', () => {
    // 200 unmeasured shell lanes (256 MB presumed each) and 20 GB: room for 78 of them at once,
    // but a ceiling of 2 runs two at a time, in turns; each lane, when its turn comes, fits.
    const lanes = [lane('busy', { cap: 1, demand: 5, workers: 1, measured: 1 }), ...Array.from({ length: 199 }, (_, i) => lane(`l-${i}`, { cap: 1, demand: 5 }))];
    const l = limitsOf(lanes, 20 * GiB, 2);
    expect(Object.entries(l).filter(([, n]) => n < 2)).toEqual([]);
  });

  it('two lanes wanting to grow never plan on the same memory', () => {
    const lanes = [lane('a', { demand: 10, cost: settled(300 * MiB) }), lane('b', { demand: 10, cost: settled(300 * MiB) })];
    const l = limitsOf(lanes, 1500 * MiB, 10);
    expect(l.a! + l.b!).toBeLessThanOrEqual(4);
    expect(Math.abs(l.a! - l.b!)).toBeLessThanOrEqual(1);
  });

  it('says what holds each lane, in words', () => {
    const text = (l: LaneMemoryInput, budget: number) => laneMemoryLimits([l], budget, 7).get(l.name)!.text;
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
      workers = Math.min(7, r.limits.lanes.get('ml')!.limit);
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
