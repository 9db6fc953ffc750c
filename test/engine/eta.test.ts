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
