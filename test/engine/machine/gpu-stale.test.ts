// A read of the GPUs that fails (a timeout above all, as on a machine under heavy load) never
// lifts a GPU limit the last good reading set: the last cards stand for a while and no ml lane
// grows on them; once they are too old each lane keeps what it has; a lane grows again only on a
// fresh reading with room. Pure: failedRead (gpu.ts) makes the facts, machineLimits judges them.
import { describe, expect, it } from 'vitest';
import { failedRead, type GpuCard, type GpuFacts } from '../../../electron/engine/machine/gpu.js';
import { INITIAL_LIMITS_STATE, machineLimits, type GpuInputs } from '../../../electron/engine/machine/limits.js';
import { facts, lane, MiB, settled } from './machine-fixtures.js';

type Nvidia = Extract<GpuFacts, { source: 'nvidia' }>;
const KEEP = 10 * 60_000;
const T0 = 1_000_000;
const card: GpuCard = { index: 0, uuid: 'GPU-0', name: 'Card', totalBytes: 24576 * MiB, usedBytes: 300 * MiB, usedByLanes: 0 };
const timeout = { message: 'nvidia-smi did not answer within 5000 ms', timedOut: true };
const refused = { message: 'nvidia-smi failed: exit code 9', timedOut: false };

/** An ml lane of 6,000 MiB workers at cap 7, `workers` of them running (each holding its 6,000 MiB on the card). */
function limitOf(gpu: GpuFacts, workers: number, at = T0): { limit: number; text: string } {
  const used = { ...card, usedBytes: card.usedBytes + workers * 6000 * MiB, usedByLanes: workers * 6000 * MiB };
  const g = gpu.source === 'nvidia' && gpu.cards ? { ...gpu, cards: [used] } : gpu;
  const ml = lane('ml', { class: 'ml', cap: 7, demand: 40, workers, measured: workers, cost: settled(400 * MiB) });
  const inputs: GpuInputs = { workers: Array.from({ length: workers }, () => ({ lane: 'ml', card: 0, bytes: 6000 * MiB })), lanes: new Map([['ml', { measured: workers, cost: settled(6000 * MiB) }]]) };
  const l = machineLimits({ ...facts({ at, cpu: { coresFrom: 'override' } }), gpu: g }, [ml], INITIAL_LIMITS_STATE, inputs).limits.lanes.get('ml')!;
  return { limit: l.limit, text: l.text };
}

/** `n` failed reads in a row after `start`, a minute apart, the last at `start + n` minutes. */
function failures(start: Nvidia, n: number, failure = timeout): Nvidia {
  let g: GpuFacts = start;
  for (let i = 1; i <= n; i++) g = failedRead(g as Nvidia, failure, T0 + i * 60_000, KEEP);
  return g as Nvidia;
}

const fresh: Nvidia = { source: 'nvidia', cards: [card], at: T0, override: null };
const never: Nvidia = { source: 'nvidia', cards: null, at: null, override: null };

describe('a GPU read that fails never raises a limit', () => {
  it.each<[string, Nvidia, number]>([
    ['one timeout after a good reading, 2 running', failures(fresh, 1), 2],
    ['three timeouts after a good reading, 2 running', failures(fresh, 3), 2],
    ['eleven timeouts, the reading older than it is kept, 2 running', failures(fresh, 11), 2],
    ['a hundred timeouts, 3 running (all that fit)', failures(fresh, 100), 3],
    ['one timeout, none running', failures(fresh, 1), 0],
    ['the reading dropped as too old, none running', failures(fresh, 11), 0],
    ['refusals after a good reading: still the last limit, never "not known"', failures(fresh, 5, refused), 2],
    ['the first reads all time out (a loaded machine), one running', failures(never, 5), 1],
    ['the first reads all time out, none running: one to measure, as before any read', failures(never, 20), 0],
  ])('%s', (_what, after, workers) => {
    const last = failures(fresh, 0);
    const before = after.at === null ? 1 : limitOf(last, workers).limit;
    const now = limitOf(after, workers, T0 + ((after.failures ?? 0) + 1) * 60_000);
    expect(now.limit).toBeLessThanOrEqual(Math.max(before, workers));
    expect(now.limit).toBeLessThanOrEqual(Math.max(1, workers));
  });

  it('the fresh reading fits 3; after a timeout the lane keeps the 2 it has, saying since when', () => {
    expect(limitOf(fresh, 2).limit).toBe(3);
    const stale = limitOf(failures(fresh, 1), 2, T0 + 2 * 60_000);
    expect(stale.limit).toBe(2);
    expect(stale.text).toMatch(/^GPU not read since \d\d:\d\d: no more workers until it is$/);
    // A fresh reading with room: it grows again.
    expect(limitOf({ ...fresh, at: T0 + 3 * 60_000 }, 2, T0 + 3 * 60_000).limit).toBe(3);
  });

  it('the last cards stand for the stated while, then are dropped (and what they allowed is kept)', () => {
    expect(failures(fresh, 10).cards).toEqual([card]);
    const dropped = failures(fresh, 11);
    expect(dropped).toMatchObject({ cards: null, at: T0, failures: 11, refusals: 0 });
    expect(limitOf(dropped, 3, T0 + 12 * 60_000)).toMatchObject({ limit: 3, text: expect.stringMatching(/^GPU not read since/) });
  });

  it('only refusals, never timeouts, make GPU memory not known (no limit)', () => {
    expect(limitOf(failures(never, 3, refused), 0).limit).toBe(8); // no GPU limit: the ceiling, every core of 8 with nobody known at the computer
    expect(failures(never, 3).refusals).toBe(0);
    expect(limitOf(failures(never, 3), 0).limit).toBe(1);
    // A timeout in between starts the count of refusals again.
    const mixed = failedRead(failedRead(failures(never, 2, refused), timeout, T0, KEEP) as Nvidia, refused, T0, KEEP) as Nvidia;
    expect(mixed.refusals).toBe(1);
    expect(limitOf(mixed, 0).limit).toBe(1);
  });
});
