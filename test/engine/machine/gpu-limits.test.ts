// The GPU limit's rules, one row each: what the cards leave for ml workers, how many of a lane's
// workers fit by their measured GPU cost, one at a time until measured, and which card a new
// worker is given.
import { describe, expect, it } from 'vitest';
import { cardBudgets, laneGpuLimits, pickCard, type CardBudget, type GpuWorker, type LaneGpuInput } from '../../../electron/engine/machine/gpu-limits.js';
import type { GpuCard } from '../../../electron/engine/machine/gpu.js';
import { GiB, MiB } from './machine-fixtures.js';

const card = (index: number, totalMiB: number, usedMiB = 0, heldMiB = 0): GpuCard => ({ index, uuid: `GPU-${index}`, name: 'Card', totalBytes: totalMiB * MiB, usedBytes: usedMiB * MiB, heldByLanes: heldMiB * MiB });
/** The card: 24,576 MiB, 300 MiB of it the display's. */
const card24 = (othersMiB = 300, heldMiB = 0) => card(0, 24576, othersMiB + heldMiB, heldMiB);
const lane = (o: Partial<LaneGpuInput> = {}): LaneGpuInput => ({ name: 'models', want: 7, workers: 0, measured: 0, cost: null, ...o });
const settled = (mib: number) => ({ bytes: mib * MiB, rounds: 10 });
const provisional = (mib: number) => ({ bytes: mib * MiB, rounds: 1 });
const on = (n: number, cardIndex = 0, o: Partial<GpuWorker> = {}): GpuWorker[] => Array.from({ length: n }, () => ({ lane: 'models', card: cardIndex, bytes: 6000 * MiB, ...o }));

describe('what the cards leave for ml workers', () => {
  it.each<[string, GpuCard[], number | null, number[]]>([
    ['a 24,576 MiB card, 300 MiB in use by the display: less a 2 % reserve', [card24()], null, [24576 - 300 - 24576 * 0.02]],
    ["what Lanes' workers hold is free for them", [card24(300, 18000)], null, [24576 - 300 - 24576 * 0.02]],
    ["another program's model counts against it", [card24(9300)], null, [24576 - 9300 - 24576 * 0.02]],
    ['the reserve is at least 256 MiB', [card(0, 8192)], null, [8192 - 256]],
    ['and at most 1 GiB', [card(0, 81920)], null, [81920 - 1024]],
    ['a full card leaves nothing', [card(0, 8192, 8192)], null, [0]],
    ['LANES_GPU_MEMORY=12G on one card', [card24()], 12 * GiB, [12288]],
    ['LANES_GPU_MEMORY=12G over two cards, shared as they are free', [card(0, 16384), card(1, 16384, 8192)], 12 * GiB, [8192, 4096]],
  ])('%s', (_what, cards, override, mib) => {
    expect(cardBudgets(cards, override).map((b) => b.bytes / MiB)).toEqual(mib.map((m) => expect.closeTo(m, 3)));
  });
});

describe('how many of a lane’s workers fit', () => {
  const one = (cards: GpuCard[] = [card24()], override: number | null = null) => cardBudgets(cards, override);
  it.each<[string, CardBudget[], GpuWorker[], LaneGpuInput, number, string | RegExp]>([
    ['never measured: one, measured before any more', one(), [], lane(), 1, 'GPU: measuring one worker before starting more'],
    ['never measured, its one worker not yet either', one(), on(1, 0, { bytes: 0 }), lane({ workers: 1 }), 1, 'GPU: measuring one worker before starting more'],
    ['a first measurement: one more, then measure it', one(), on(1), lane({ workers: 1, measured: 1, cost: provisional(6000) }), 2, 'GPU: adding one worker at a time while measuring'],
    ['the new worker not yet measured: no more', one(), on(2), lane({ workers: 2, measured: 1, cost: provisional(6000) }), 2, 'GPU: measuring the new worker before starting more'],
    ['settled at 6,000 MiB: 3 fit with the margin', one(), on(3), lane({ workers: 3, measured: 3, cost: settled(6000) }), 3, 'the GPU has memory for 3 of these workers, about 5.9 GB each'],
    ['4 running, beyond the budget: back to 3', one(), on(4), lane({ workers: 4, measured: 4, cost: settled(6000) }), 3, 'the GPU has memory for 3 of these workers, about 5.9 GB each'],
    ["another program's 9,000 MiB on the card: 2", one([card24(9300, 18000)]), on(3), lane({ workers: 3, measured: 3, cost: settled(6000) }), 2, 'the GPU has memory for 2 of these workers, about 5.9 GB each'],
    ['one still loading counts at its lane’s cost', one(), [...on(2), ...on(1, 0, { bytes: 0 })], lane({ workers: 3, measured: 2, cost: settled(6000) }), 3, /memory for 3/],
    ['a worker leaving still holds its memory, but no worker in service goes for it', one(), [...on(3), ...on(1, 0, { leaving: true })], lane({ workers: 3, measured: 3, cost: settled(6000) }), 3, /memory for 3/],
    ['a lane whose workers use no GPU is not limited', one(), on(2, 0, { bytes: 0 }), lane({ workers: 2, measured: 2, cost: settled(0) }), Infinity, ''],
    ['measured at 0 but not yet settled: one at a time still', one(), on(1, 0, { bytes: 0 }), lane({ workers: 1, measured: 1, cost: provisional(0) }), 2, /one worker at a time/],
    ['one worker needs more than the card has', one(), [], lane({ cost: settled(30000) }), 0, 'GPU: one of these needs about 29 GB, 22 GB is free for workers'],
    ['LANES_GPU_MEMORY=12G: 2 kept, but no room to grow into', one([card24()], 12 * GiB), on(2), lane({ workers: 2, measured: 2, cost: settled(6000) }), 2, /memory for 2/],
    ['two 16 GiB cards, 2 on each: 4', one([card(0, 16384), card(1, 16384)]), [...on(2, 0), ...on(2, 1)], lane({ workers: 4, measured: 4, cost: settled(6000) }), 4, 'the GPUs have memory for 4 of these workers, about 5.9 GB each'],
    ['plenty of room and little work: no need to go one at a time', one([card(0, 81920)]), on(1, 0, { bytes: 2000 * MiB }), lane({ want: 3, workers: 1, measured: 1, cost: settled(2000) }), 38, /memory for 38/],
  ])('%s: %s', (_what, budgets, workers, l, limit, text) => {
    const got = laneGpuLimits(budgets, workers, [l]).get(l.name)!;
    expect(got.workers).toBe(limit);
    expect(got.text).toEqual(typeof text === 'string' ? text : expect.stringMatching(text));
  });

  it('two ml lanes on one card: what one will start is not counted on by the other', () => {
    const budgets = cardBudgets([card24(300, 12000)], null);
    const a = lane({ name: 'a', workers: 2, measured: 2, cost: settled(6000) });
    const b = lane({ name: 'b', want: 3, workers: 0, cost: settled(4000) });
    const limits = laneGpuLimits(budgets, on(2, 0, { lane: 'a' }), [a, b]);
    const [la, lb] = [limits.get('a')!.workers, limits.get('b')!.workers];
    expect(lb).toBe(1);
    expect(la).toBe(3);
    expect(la * 6000 + lb * 4000).toBeLessThanOrEqual(budgets[0]!.bytes / MiB);
  });
});

describe('the card a new worker is given', () => {
  const two = cardBudgets([card(0, 16384), card(1, 16384)], null);
  const costs = new Map([['models', 6000 * MiB]]);
  it.each<[string, CardBudget[], GpuWorker[], number | null]>([
    ['one card: nothing to choose', cardBudgets([card24()], null), [], null],
    ['two empty cards: the first', two, [], 0],
    ['the one with more room', two, on(1, 0), 1],
    ['a worker still loading holds its lane’s cost there already', two, on(1, 0, { bytes: 0 }), 1],
    ['level again: the first', two, [...on(1, 0), ...on(1, 1)], 0],
    ['another program on the first: the second', cardBudgets([card(0, 16384, 12000), card(1, 16384)], null), [], 1],
  ])('%s', (_what, budgets, workers, index) => {
    expect(pickCard(budgets, workers, costs)?.index ?? null).toBe(index);
  });
});
