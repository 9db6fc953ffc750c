// The GPUs' own rules, one row each: what the cards leave for ml workers, and which card a new
// worker is given (each alone, and a pass's starts together). How many of a lane's workers fit
// on the cards is the one budget rule, table-tested with memory's in fit-budget.test.ts.
import { describe, expect, it } from 'vitest';
import { cardBudgets, cardsForStarts, pickCard, type CardBudget, type GpuWorker } from '../../../electron/engine/machine/gpu-limits.js';
import type { GpuCard } from '../../../electron/engine/machine/gpu.js';
import { GiB, MiB } from './machine-fixtures.js';

const card = (index: number, totalMiB: number, usedMiB = 0, lanesMiB = 0): GpuCard => ({ index, uuid: `GPU-${index}`, name: 'Card', totalBytes: totalMiB * MiB, usedBytes: usedMiB * MiB, usedByLanes: lanesMiB * MiB });
/** The card: 24,576 MiB, 300 MiB of it the display's. */
const card24 = (othersMiB = 300, lanesMiB = 0) => card(0, 24576, othersMiB + lanesMiB, lanesMiB);
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

describe('the cards a pass’s new workers are given', () => {
  const two = cardBudgets([card(0, 16384), card(1, 16384)], null);
  const costs = new Map([['models', 6000 * MiB], ['small', 1000 * MiB]]);
  it.each<[string, CardBudget[], GpuWorker[], { lane: string; count: number }[], number[][]]>([
    ['one card: none chosen', cardBudgets([card24()], null), [], [{ lane: 'models', count: 2 }], [[]]],
    ['two empty cards, two new workers: one on each', two, [], [{ lane: 'models', count: 2 }], [[0, 1]]],
    ['each counts those placed before it, across starts', two, on(1, 0), [{ lane: 'models', count: 1 }, { lane: 'models', count: 2 }], [[1], [0, 1]]],
    ['a cheap lane’s worker, placed first, weighs what its lane costs', two, [], [{ lane: 'small', count: 1 }, { lane: 'models', count: 1 }], [[0], [1]]],
  ])('%s', (_what, budgets, workers, starts, cards) => {
    expect(cardsForStarts(starts, budgets, workers, costs).map((placed) => placed.map((c) => c.index))).toEqual(cards);
  });
});
