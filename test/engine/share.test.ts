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

  describe('in turns, when more lanes want a worker than there are', () => {
    const now = 10_000;
    const held = (name: string, waiting: number, since = now - 100): Claim => ({ name, want: 1, backlog: waiting + 1, waiting, running: 1, servedSince: since, turnMs: 2_000 });
    const waits = (name: string, since: number): Claim => ({ name, want: 1, backlog: 5, waiting: 5, running: 0, waitingSince: since });

    it('a lane within its turn keeps its worker while it has work waiting', () => {
      expect(asObject(fairShares([held('a', 3), held('b', 3), waits('c', now - 5_000)], 2, now))).toEqual({ a: 1, b: 1, c: 0 });
    });

    it('a lane on its last job promises its worker to the lane that waited longest, within its turn or not', () => {
      expect(asObject(fairShares([held('a', 0), held('b', 3), waits('c', now - 5_000), waits('d', now - 9_000)], 2, now))).toEqual({ a: 0, b: 1, c: 0, d: 1 });
    });

    it('with nobody waiting, a lane on its last job keeps its worker', () => {
      expect(asObject(fairShares([held('a', 0), held('b', 3), { ...waits('c', now), want: 0, waiting: 0, backlog: 0 }], 2, now))).toEqual({ a: 1, b: 1, c: 0 });
    });
  });

  it('never hands out more than the ceiling', () => {
    for (let ceiling = 0; ceiling < 10; ceiling++) {
      const total = [...fairShares([claim('a', 9, 100, 4), claim('b', 9, 80, 4), claim('c', 9, 5)], ceiling).values()].reduce((x, y) => x + y, 0);
      expect(total).toBeLessThanOrEqual(ceiling);
    }
  });
});
