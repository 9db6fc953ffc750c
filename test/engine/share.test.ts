import { describe, expect, it } from 'vitest';
import { fairShares, type Claim } from '../../electron/engine/sizer/share.js';

const claim = (name: string, want: number, backlog: number, running = 0): Claim => ({ name, want, backlog, running });
const asObject = (m: Map<string, number>) => Object.fromEntries(m);

describe('fairShares', () => {
  it.each([
    ['enough for everyone: each gets what it wants', 7, [claim('a', 3, 30), claim('b', 2, 2)], { a: 3, b: 2 }],
    ['one each before any second', 2, [claim('a', 5, 900), claim('b', 5, 3), claim('c', 5, 1)], { a: 1, b: 1, c: 0 }],
    ['the rest by backlog', 5, [claim('a', 5, 900), claim('b', 5, 3)], { a: 4, b: 1 }],
    ['ties broken by name, not input order', 1, [claim('b', 1, 5), claim('a', 1, 5)], { a: 1, b: 0 }],
    ['incumbents keep their workers when backlogs cross', 4, [claim('a', 4, 10, 3), claim('b', 4, 50, 1)], { a: 3, b: 1 }],
    ['a newcomer still gets its first worker from an incumbent', 3, [claim('a', 3, 10, 3), claim('b', 1, 1)], { a: 2, b: 1 }],
    ['lanes that want nothing get nothing', 3, [claim('a', 0, 0), claim('b', 0, 40)], { a: 0, b: 0 }],
  ])('%s', (_name, ceiling, claims, want) => {
    expect(asObject(fairShares(claims, ceiling))).toEqual(want);
  });

  it('never hands out more than the ceiling', () => {
    for (let ceiling = 0; ceiling < 10; ceiling++) {
      const total = [...fairShares([claim('a', 9, 100, 4), claim('b', 9, 80, 4), claim('c', 9, 5)], ceiling).values()].reduce((x, y) => x + y, 0);
      expect(total).toBeLessThanOrEqual(ceiling);
    }
  });
});
