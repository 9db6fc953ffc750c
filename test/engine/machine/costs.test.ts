// What a lane's workers typically cost (a recent maximum fading toward what is measured now,
// kept as plain JSON), and which worker goes when memory runs critically low.
import { describe, expect, it } from 'vitest';
import { criticalStop, type BusyLane } from '../../../electron/engine/machine/critical.js';
import { COST_HALF_LIFE_MS, parseLaneCost, recordCost, type LaneCost } from '../../../electron/engine/machine/lane-cost.js';
import { facts, GiB, MiB } from './machine-fixtures.js';

describe('the typical cost of a lane’s worker', () => {
  it('is the recent maximum', () => {
    let c: LaneCost | null = null;
    for (const bytes of [300, 450, 380]) c = recordCost(c, bytes * MiB, 1000);
    expect(c).toEqual({ bytes: 450 * MiB, at: 1000, rounds: 1 });
  });

  it('a peak fades toward what is measured now, by half its excess per half-life', () => {
    const peak = recordCost(null, 800 * MiB, 0);
    const later = recordCost(peak, 400 * MiB, COST_HALF_LIFE_MS);
    expect(later!.bytes).toBe(600 * MiB);
    expect(recordCost(later, 400 * MiB, 5 * COST_HALF_LIFE_MS)!.bytes).toBe(412.5 * MiB);
  });

  it('counts rounds, not workers measured in one round', () => {
    let c: LaneCost | null = null;
    for (const at of [0, 0, 0, 15_000, 15_000, 30_000]) c = recordCost(c, 100 * MiB, at);
    expect(c!.rounds).toBe(3);
  });

  it('a worker on its first job (perhaps still loading) can raise the cost but never settles it', () => {
    let c = recordCost(null, 40 * MiB, 0, undefined, false);
    for (const at of [150, 300, 450]) c = recordCost(c, 40 * MiB, at, undefined, false);
    expect(c).toEqual({ bytes: 40 * MiB, at: 450, rounds: 0 });
    c = recordCost(c, 420 * MiB, 600);
    expect(c).toMatchObject({ bytes: 420 * MiB, rounds: 1 });
  });

  it('a figure no worker can hold is not a measurement', () => {
    const c = recordCost(null, 300 * MiB, 0);
    expect(recordCost(c, 0, 10)).toEqual(c);
    expect(recordCost(c, NaN, 10)).toEqual(c);
    expect(recordCost(c, 2 ** 50, 10)).toEqual(c);
    expect(recordCost(null, 100, 0)).toBeNull();
  });

  it('survives a round trip through JSON, and what comes back is checked', () => {
    const c = recordCost(null, 300 * MiB, 1_700_000_000_000)!;
    expect(parseLaneCost(JSON.parse(JSON.stringify(c)))).toEqual(c);
    expect(parseLaneCost(null)).toBeNull();
    expect(parseLaneCost({ bytes: '300', at: 1, rounds: 1 })).toBeNull();
    // Rounds 0: seen only on workers' first jobs, provisional; a negative count is no count.
    expect(parseLaneCost({ bytes: 300 * MiB, at: 1, rounds: 0 })).toEqual({ bytes: 300 * MiB, at: 1, rounds: 0 });
    expect(parseLaneCost({ bytes: 300 * MiB, at: 1, rounds: -1 })).toBeNull();
    expect(parseLaneCost({ bytes: 300 * MiB, at: -5, rounds: 2 })).toBeNull();
  });
});

describe('an ml lane’s GPU cost', () => {
  it('may be 0 (the lane uses no GPU), as a measurement and as what is stored', () => {
    const none = recordCost(null, 0, 1000, 0);
    expect(none).toEqual({ bytes: 0, at: 1000, rounds: 1 });
    expect(recordCost(none, 6000 * MiB, 2000, 0)).toEqual({ bytes: 6000 * MiB, at: 2000, rounds: 2 });
    expect(parseLaneCost({ bytes: 0, at: 1, rounds: 1 }, 0)).toEqual({ bytes: 0, at: 1, rounds: 1 });
    // Not as a memory cost, whose floor stays.
    expect(parseLaneCost({ bytes: 0, at: 1, rounds: 1 })).toBeNull();
    expect(parseLaneCost({ bytes: -1, at: 1, rounds: 1 }, 0)).toBeNull();
  });
});

describe('memory critically low', () => {
  const lanes: BusyLane[] = [
    { name: 'shell', costBytes: 50 * MiB, busy: [{ id: 's1', since: 900 }] },
    {
      name: 'ml',
      costBytes: 2 * GiB,
      busy: [
        { id: 'm1', since: 100 },
        { id: 'm2', since: 500 },
        { id: 'm3', since: 300 },
      ],
    },
    { name: 'idle-big', costBytes: 8 * GiB, busy: [] },
  ];
  // 16 GiB: the floor is 5 %, about 819 MiB.
  const low = facts({ at: 5000, memory: { available: 500 * MiB } });

  it('names the newest busy worker of the costliest lane that has one', () => {
    expect(criticalStop(low, lanes, null)).toEqual({
      stop: { worker: 'm2', lane: 'ml', text: 'memory critically low (500 MB free): stopped a ml worker, its job runs again' },
      lastAt: 5000,
    });
  });

  it('above the floor, nothing', () => {
    expect(criticalStop(facts({ memory: { available: 900 * MiB } }), lanes, null).stop).toBeNull();
  });

  it('one per fresh reading: the same reading names no second worker', () => {
    const first = criticalStop(low, lanes, null);
    expect(criticalStop(low, lanes, first.lastAt).stop).toBeNull();
    expect(criticalStop({ ...low, at: 20_000 }, lanes, first.lastAt).stop?.worker).toBe('m2');
  });

  it('nothing busy, nothing to stop', () => {
    expect(criticalStop(low, [{ name: 'ml', costBytes: GiB, busy: [] }], null).stop).toBeNull();
  });

  it('the floor is 5 % of the machine, never below 256 MiB nor above 1 GiB', () => {
    const at = (total: number, available: number) => criticalStop(facts({ memory: { total, available } }), lanes, null).stop !== null;
    expect(at(2 * GiB, 250 * MiB)).toBe(true);
    expect(at(2 * GiB, 260 * MiB)).toBe(false);
    expect(at(128 * GiB, 1000 * MiB)).toBe(true);
    expect(at(128 * GiB, 1100 * MiB)).toBe(false);
  });
});
