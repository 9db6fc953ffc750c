// How many jobs a worker is handed, from the counts it is given: never fewer than none, even
// when a shared lane's counts (as last read from Redis) trail the jobs its workers hold.
import { describe, expect, it } from 'vitest';
import { Hands } from '../../electron/engine/workers/hands.js';
import { ENGINE_DEFAULTS } from '../../electron/engine/defaults.js';
import type { WorkerRecord } from '../../electron/engine/workers/pool-types.js';

const worker = (id: string, lane: string, held: number): WorkerRecord => ({
  id,
  lane,
  proc: { pid: 1, send: () => {}, onMessage: () => {}, onExit: () => {}, kill: () => {} },
  state: 'busy',
  job: null,
  hand: Array.from({ length: held }, (_, i) => ({ id: i + 1, attempt: 1 })),
  pgids: new Set(),
  lastHeard: 0,
  persistent: false,
});

describe('the size of a hand', () => {
  it('is none, not fewer, when the lane counts fewer queued jobs than its workers hold', () => {
    const holding = worker('w1', 'a', 3);
    const asking = worker('w2', 'a', 0);
    const workers = new Map([holding, asking].map((w) => [w.id, w]));
    // Counts as last read: one queued, though three are in a hand.
    const hands = new Hands(workers, () => 1, () => true, ENGINE_DEFAULTS.handBelowMs);
    hands.ran('a', 1);
    expect(hands.size(asking, false)).toBe(0);
    expect(hands.size(asking, true)).toBe(0);
  });

  it('a deep backlog of short jobs is shared among the lane’s workers', () => {
    const a = worker('w1', 'a', 0);
    const b = worker('w2', 'a', 0);
    const hands = new Hands(new Map([a, b].map((w) => [w.id, w])), () => 20, () => false, ENGINE_DEFAULTS.handBelowMs);
    hands.ran('a', 1);
    // Twenty untaken, two workers: ten each, one of them claimed with the answer.
    expect(hands.size(a, false)).toBe(9);
    expect(hands.size(a, true)).toBe(10);
  });

  it('a dead worker’s hand stays out of reach until what it may have started of it is ended, and no longer', async () => {
    const alive = worker('w2', 'a', 2);
    const workers = new Map([[alive.id, alive]]);
    const hands = new Hands(workers, () => 10, () => false, ENGINE_DEFAULTS.handBelowMs);
    let ended!: () => void;
    const ending = new Promise<void>((resolve) => (ended = resolve));
    // The dead worker is out of the pool already; its hand of jobs 7 and 8 is held.
    hands.hold('a', [7, 8], ending);
    hands.hold('b', [9], Promise.reject(new Error('would not end')));
    expect([...(hands.inHandByLane().get('a') ?? [])].sort()).toEqual([1, 2, 7, 8]);
    ended();
    await ending;
    await new Promise((resolve) => setImmediate(resolve));
    expect([...(hands.inHandByLane().get('a') ?? [])].sort()).toEqual([1, 2]);
    expect(hands.inHandByLane().has('b')).toBe(false);
  });
});
