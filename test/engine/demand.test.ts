// A lane's demand, defined once (sizer/demand.ts): each queued job in exactly one part, and what
// an estimate counts. Jobs waiting for other jobs or for their time are not yet, and not left.
import { describe, expect, it } from 'vitest';
import { demandOf, leftOf, retryingOf, toRunOf, waitingOf } from '../../electron/engine/sizer/demand.js';

describe('demand', () => {
  it.each([
    // queued, running, notYet, inHand → ready, inHand, notYet, afterJobs, scheduled, waiting, left
    ['plain work', 5, 1, undefined, 0, [5, 0, 0, 0, 0, 5, 6]],
    ['a retry in backoff counts toward the estimate', 5, 0, { n: 1, next: 9 }, 0, [4, 0, 1, 0, 0, 4, 5]],
    ['ten waiting for another job: not ready, not left', 11, 1, { n: 10, next: null, afterJobs: 10, scheduled: 0 }, 0, [1, 0, 10, 10, 0, 1, 2]],
    ['three scheduled: not ready, not left until due', 3, 0, { n: 3, next: 7_200_000, afterJobs: 0, scheduled: 3 }, 0, [0, 0, 3, 0, 3, 0, 0]],
    ['all three kinds at once', 10, 0, { n: 6, next: 5, afterJobs: 2, scheduled: 3 }, 1, [3, 1, 6, 2, 3, 4, 5]],
    ['counts read apart are clamped', 2, 0, { n: 5, next: 5, afterJobs: 9, scheduled: 9 }, 0, [0, 0, 2, 2, 0, 0, 0]],
  ])('%s', (_what, queued, running, notYet, inHand, [ready, hand, nYet, after, scheduled, waiting, left]) => {
    const d = demandOf({ queued, running, notYet, inHand });
    expect([d.ready, d.inHand, d.notYet, d.afterJobs, d.scheduled, waitingOf(d), leftOf(d)]).toEqual([ready, hand, nYet, after, scheduled, waiting, left]);
    expect(retryingOf(d)).toBe(d.notYet - d.afterJobs - d.scheduled);
    expect(toRunOf(d)).toBe(left! - d.running);
  });
});
