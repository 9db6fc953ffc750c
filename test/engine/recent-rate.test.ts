// The live pace a lane shows: it must follow a change within the window, fall to 0 when nothing
// finishes, and not be fooled by a lane that has only just begun.
import { describe, expect, it } from 'vitest';
import { RATE_WINDOW_S, RecentRate } from '../../electron/engine/status/recent-rate.js';

const T = 1_800_000_000_000;
const s = (n: number) => T + n * 1000;

describe('RecentRate', () => {
  it('is jobs per minute over the last 30 s of a steady lane', () => {
    const r = new RecentRate();
    for (let i = 0; i <= 60; i++) r.add('a', s(i));
    expect(RATE_WINDOW_S).toBe(30);
    expect(r.perMinute('a', s(60))).toBe(60);
    expect(r.perMinute('b', s(60))).toBe(0);
  });

  it('shows a lane that just began at its real pace, not diluted by a window it was not at work in', () => {
    const r = new RecentRate();
    r.active('a', s(0));
    for (let i = 1; i <= 10; i++) r.add('a', s(i), 5);
    expect(r.perMinute('a', s(10))).toBe(300);
  });

  it('follows a raised pace within the window (a cap went from 1 to 3)', () => {
    const r = new RecentRate();
    for (let i = 0; i < 100; i++) r.add('a', s(i));
    for (let i = 100; i <= 130; i++) r.add('a', s(i), 3);
    expect(r.perMinute('a', s(130))).toBe(180);
  });

  it('falls to 0 once nothing has finished for the window', () => {
    const r = new RecentRate();
    for (let i = 0; i < 40; i++) r.add('a', s(i));
    expect(r.perMinute('a', s(45))).toBeLessThan(60);
    expect(r.perMinute('a', s(40 + RATE_WINDOW_S))).toBe(0);
  });

  it('does not make one early finish a pace of 60 a minute', () => {
    const r = new RecentRate();
    r.active('a', s(0));
    r.add('a', s(1));
    expect(r.perMinute('a', s(1))).toBe(12);
  });
});
