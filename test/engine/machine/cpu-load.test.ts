// Cores other programs keep busy: the machine's busy time less Lanes' own, smoothed.
import { describe, expect, it } from 'vitest';
import { busyCpuMs, LOAD_SMOOTHING_MS, nextLoad, type LoadReading } from '../../../electron/engine/machine/cpu-load.js';
import { realMachine } from '../../support/machine.js';

/** Readings 15 s apart in which other programs keep `others` cores busy and Lanes `own` more. */
function run(others: number[], own = 0): LoadReading {
  let r: LoadReading | null = null;
  let busy = 0;
  let at = 0;
  for (const o of [0, ...others]) {
    at += 15_000;
    busy += (o + own) * 15_000;
    r = nextLoad(r, { at, busyMs: busy, ownMs: own * 15_000 }, 8);
  }
  return r!;
}

describe('load from other programs', () => {
  it('is not known from one reading', () => {
    expect(nextLoad(null, { at: 1, busyMs: 5, ownMs: 0 }, 8).otherBusy).toBeNull();
  });

  it('leaves out what Lanes used itself', () => {
    expect(run([2, 2, 2], 3).otherBusy).toBeCloseTo(2, 5);
  });

  it('a burst of fifteen seconds moves it by about a fifth', () => {
    const r = run([0, 0, 4]);
    expect(r.otherBusy).toBeCloseTo(4 * (1 - Math.exp(-15_000 / LOAD_SMOOTHING_MS)), 5);
  });

  it('a change that lasts a few minutes is followed', () => {
    expect(run(Array(16).fill(3)).otherBusy).toBeGreaterThan(2.9);
  });

  it('counters that went backwards (a reset) or a clock that did not move change nothing', () => {
    const r = run([2, 2]);
    expect(nextLoad(r, { at: r.at + 15_000, busyMs: 0, ownMs: 0 }, 8).otherBusy).toBe(r.otherBusy);
    expect(nextLoad(r, { at: r.at, busyMs: r.busyMs + 1e6, ownMs: 0 }, 8).otherBusy).toBe(r.otherBusy);
  });

  it('never claims more cores than there are', () => {
    let r = nextLoad(null, { at: 0, busyMs: 0, ownMs: 0 }, 2);
    r = nextLoad(r, { at: 1000, busyMs: 1e9, ownMs: 0 }, 2);
    expect(r.otherBusy).toBe(2);
  });

  it('the counters it reads only grow', () => {
    realMachine();
    const a = busyCpuMs(null);
    let spin = 0;
    for (let i = 0; i < 2e6; i++) spin += i;
    expect(spin).toBeGreaterThan(0);
    expect(busyCpuMs(null)).toBeGreaterThanOrEqual(a);
  });
});
