// The pace starts again at resume: the lane of test/bench/pace-replay.ts is paused 25 s partway.
// What a person meets, step by step: no outlook while paused, none guessed from the paused seconds
// right after, and a known one again within two runs. How close the outlooks come to the truth is
// a figure of the benchmark (step `pace`), not of this test.
import { describe, expect, it } from 'vitest';
import { paceCounts } from '../../electron/engine/status/lane-status.js';
import { play, RUN_MS, T0 } from '../bench/pace-replay.js';

describe('the pace after a resume', () => {
  for (const of of ['all', 'lane'] as const) {
  it(`300 two-second jobs on 3 workers, ${of === 'all' ? 'all work' : 'the lane by itself, to its own end,'} paused 25 s: no outlook while paused, and a known one again at the step it resumes`, () => {
    const seen = play([[6_000, 31_000]], of);
    const at = (s: { at: number }) => s.at - T0;
    // Paused: no outlook at all.
    expect(seen.filter((s) => at(s) >= 6_100 && at(s) < 31_000).every((s) => s.state === 'paused' || s.state === 'none')).toBe(true);
    // It was known before the pause, and comes back known at the very step the work resumes (how
    // close it comes to the truth is the bench's figure, step `pace`).
    expect(seen.some((s) => at(s) < 6_000 && s.state === 'known')).toBe(true);
    expect(seen.find((s) => at(s) >= 31_000)!.state).toBe('known');
    // And it stays known to the end of the run.
    expect(seen.filter((s) => at(s) >= 31_000 + 2 * RUN_MS).every((s) => s.state === 'known' || s.etaMs === 0)).toBe(true);
  });
  }

  it('the same run without a pause has a known outlook from its first finished runs to its end', () => {
    const seen = play([]);
    expect(seen.find((s) => s.state === 'known')!.at - T0).toBe(RUN_MS); // the step the first runs finish
    expect(seen.filter((s) => s.at - T0 >= 2 * RUN_MS).every((s) => s.state === 'known')).toBe(true);
  });

  it('a pace counts once a few finished over two typical runs, or the whole window', () => {
    expect(paceCounts({ finishedLately: 3, paceSpanMs: 2000, typicalRunMs: 2000 })).toBe(false);
    expect(paceCounts({ finishedLately: 3, paceSpanMs: 4000, typicalRunMs: 2000 })).toBe(true);
    expect(paceCounts({ finishedLately: 2, paceSpanMs: 30_000, typicalRunMs: 2000 })).toBe(false);
    expect(paceCounts({ finishedLately: 9, paceSpanMs: 30_000, typicalRunMs: 600_000 })).toBe(true);
  });
});
