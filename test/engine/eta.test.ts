// The estimate (status/eta.ts), one row per rule: never less than the running jobs' own time
// allows, "estimating…" until there is something to stand by, none while paused.
import { describe, expect, it } from 'vitest';
import { estimate, type EtaFacts } from '../../electron/engine/status/eta.js';
import { etaWords } from '../../shared/format.js';

const MIN = 60_000;
const facts = (f: Partial<EtaFacts>): EtaFacts => ({ queued: 0, runningFor: [], workers: 1, typicalMs: null, longestMs: null, perMinute: null, paused: false, off: false, ...f });

describe('estimate', () => {
  const rows: { name: string; f: Partial<EtaFacts>; state: string; etaMs?: number }[] = [
    { name: 'nothing left: no estimate', f: {}, state: 'none' },
    { name: 'a first job, no run finished yet: estimating', f: { runningFor: [30_000] }, state: 'estimating' },
    { name: 'a 10-minute job 30 s in, the lane’s runs 10 min: at least 9 min', f: { runningFor: [30_000], typicalMs: 10 * MIN, longestMs: 10 * MIN, perMinute: 60 }, state: 'known', etaMs: 9.5 * MIN },
    { name: 'the finding: a long job 26 s in after short ones, at a fast pace: no promise of seconds', f: { runningFor: [26_000], typicalMs: 20, longestMs: 40, perMinute: 10 }, state: 'estimating' },
    { name: 'paused: no estimate, whatever the pace', f: { queued: 40, runningFor: [1000], typicalMs: 1000, longestMs: 2000, perMinute: 60, paused: true }, state: 'paused' },
    { name: 'cap 0 and nothing running: nothing will move, no estimate', f: { queued: 12, off: true, typicalMs: 1000, longestMs: 1000 }, state: 'off' },
    { name: 'what waits takes a typical run each, over the workers', f: { queued: 40, workers: 4, typicalMs: MIN, longestMs: MIN }, state: 'known', etaMs: 10 * MIN },
    { name: 'a pace slower than the runs says: the pace wins', f: { queued: 10, workers: 1, typicalMs: 1000, longestMs: 1000, perMinute: 1 }, state: 'known', etaMs: 10 * MIN },
    { name: 'a job a little past the longest run still has an estimate', f: { runningFor: [1500], typicalMs: 1000, longestMs: 1200 }, state: 'known', etaMs: 0 },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const e = estimate(facts(r.f));
      expect(e.etaState).toBe(r.state);
      // The estimate is computed, not timed: each known one is the exact figure its rule gives.
      expect(e.etaMs).toBe(r.state === 'known' ? r.etaMs : null);
    });
  }

  // A job that says how far it has got: its own rate, while it moves; the pace rule once it stalls.
  const SEC = 1000;
  const at = (fraction: number, ranAtMoveMs: number, gapMs = ranAtMoveMs) => ({ fraction, ranAtMoveMs, gapMs });
  const withProgress: { name: string; f: Partial<EtaFacts>; state: string; etaMs?: number }[] = [
    { name: 'a 10-minute job at 5 % after 30 s, the lane’s first run: about 9.5 min', f: { runningFor: [30 * SEC], progress: [at(0.05, 30 * SEC)] }, state: 'known', etaMs: 9.5 * MIN },
    { name: 'the same job after a run of short ones: its own rate, not theirs', f: { runningFor: [30 * SEC], progress: [at(0.05, 30 * SEC)], typicalMs: 20, longestMs: 40, perMinute: 10 }, state: 'known', etaMs: 9.5 * MIN },
    { name: 'it said 5 % at 30 s and has run 20 s more, still moving: 9.5 min less those 20 s', f: { runningFor: [50 * SEC], progress: [at(0.05, 30 * SEC)] }, state: 'known', etaMs: 9.5 * MIN - 20 * SEC },
    { name: 'at 90 % after 9 min, the lane’s runs 20 min: 1 min left, progress wins', f: { runningFor: [9 * MIN], progress: [at(0.9, 9 * MIN, 30 * SEC)], typicalMs: 20 * MIN, longestMs: 20 * MIN }, state: 'known', etaMs: 1 * MIN },
    { name: 'stalled (quiet 4.5 min after a 30 s step): the pace rule, typical run less what it ran', f: { runningFor: [5 * MIN], progress: [at(0.05, 30 * SEC)], typicalMs: 10 * MIN, longestMs: 10 * MIN }, state: 'known', etaMs: 5 * MIN },
    { name: 'stalled on the lane’s first run: estimating, as without progress', f: { runningFor: [5 * MIN], progress: [at(0.05, 30 * SEC)] }, state: 'estimating' },
    { name: 'quiet for less than three of its steps (nor a minute): still its own rate', f: { runningFor: [30 * SEC + 59 * SEC], progress: [at(0.05, 30 * SEC)] }, state: 'known', etaMs: 10 * MIN - 89 * SEC },
    { name: 'at 0 %: nothing to go by, the pace rule', f: { runningFor: [30 * SEC], progress: [at(0, 30 * SEC)], typicalMs: MIN, longestMs: MIN }, state: 'known', etaMs: 30 * SEC },
    { name: 'far past the longest run seen, but moving: its own rate, not estimating', f: { runningFor: [10 * MIN], progress: [at(0.5, 10 * MIN, 10 * SEC)], typicalMs: MIN, longestMs: MIN }, state: 'known', etaMs: 10 * MIN },
    { name: 'what waits takes what the running job says a run takes, on the lane’s first run', f: { queued: 2, runningFor: [5 * MIN], progress: [at(0.5, 5 * MIN, 30 * SEC)] }, state: 'known', etaMs: 25 * MIN },
    { name: 'one running job says, one does not, on the lane’s first run: estimating', f: { runningFor: [30 * SEC, 30 * SEC], progress: [at(0.05, 30 * SEC), null], workers: 2 }, state: 'estimating' },
  ];
  for (const r of withProgress) {
    it(r.name, () => {
      const e = estimate(facts(r.f));
      expect(e.etaState).toBe(r.state);
      expect(e.etaMs).toBe(r.state === 'known' ? r.etaMs : null);
    });
  }

  it('a 10-minute job at 5 % after 30 s reads "about 10 min" (9.5 min, as the words round it)', () => {
    const e = estimate(facts({ runningFor: [30 * SEC], progress: [at(0.05, 30 * SEC)] }));
    expect(etaWords({ waiting: 0, delayed: 0, running: 1, ...e })).toBe('1 left, about 10 min');
  });

  it('a 10-minute job never shows under 9 minutes: second by second through its first 30 s, the typical run less what it ran', () => {
    for (let ran = 0; ran <= 30_000; ran += 1000) {
      const e = estimate(facts({ runningFor: [ran], typicalMs: 10 * MIN, longestMs: 10 * MIN, perMinute: 30 }));
      expect(e).toEqual({ etaMs: 10 * MIN - ran, etaState: 'known' });
    }
  });

  it('is said one way: a time, "estimating…", or nothing while paused', () => {
    const lane = { waiting: 4500, delayed: 0, running: 33 };
    expect(etaWords({ ...lane, etaMs: 38 * MIN, etaState: 'known' })).toBe('4,533 left, about 38 min');
    expect(etaWords({ ...lane, etaMs: null, etaState: 'estimating' })).toBe('4,533 left, estimating…');
    expect(etaWords({ ...lane, etaMs: null, etaState: 'paused' })).toBeNull();
    expect(etaWords({ waiting: 0, delayed: 0, running: 0, etaMs: null, etaState: 'none' })).toBeNull();
  });
});
