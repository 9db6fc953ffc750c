import { describe, expect, it } from 'vitest';
import { RATE_WINDOW_S, RecentRate } from '../../electron/engine/status/recent-rate.js';

const T = 1_800_000_000_000;
const s = (n: number) => T + n * 1000;

describe('RecentRate', () => {
  it('averages what finished over the window, per minute', () => {
    const r = new RecentRate();
    for (let i = 0; i < 150; i++) r.add('a', s(i));
    expect(r.perMinute('a', s(150))).toBe(150 / (RATE_WINDOW_S / 60));
    expect(r.perMinute('b', s(150))).toBe(0);
  });

  it('forgets what falls out of the window, including after a long quiet', () => {
    const r = new RecentRate();
    r.add('a', s(0), 10);
    r.add('a', s(200), 5);
    expect(r.perMinute('a', s(299))).toBe(3);
    expect(r.perMinute('a', s(300))).toBe(1);
    expect(r.perMinute('a', s(10_000))).toBe(0);
  });

  it('takes counts for earlier seconds still in the window, in any order', () => {
    const r = new RecentRate();
    r.add('a', s(100), 2);
    r.add('a', s(40), 3);
    r.add('a', s(-500), 7); // long gone
    expect(r.perMinute('a', s(100))).toBe(1);
  });
});
