// The pause's spans: the fixed ones, "until tomorrow" as the next morning at 08:00 local time
// whatever the hour now, and a typed span checked as the engine would take it.
import { describe, expect, it } from 'vitest';
import { PAUSE_SPANS, pauseSpan, tomorrowMorning } from '../../shared/pause-spans.js';

describe('pause spans', () => {
  it('offers a quarter of an hour, an hour and four hours, shortest first', () => {
    expect(PAUSE_SPANS.map((s) => s.seconds)).toEqual([900, 3_600, 14_400]);
  });

  it.each([
    [new Date(2030, 0, 10, 23, 30), new Date(2030, 0, 11, 8, 0)],
    [new Date(2030, 0, 10, 0, 15), new Date(2030, 0, 11, 8, 0)],
    [new Date(2030, 0, 31, 9, 0), new Date(2030, 1, 1, 8, 0)],
    [new Date(2030, 11, 31, 18, 0), new Date(2031, 0, 1, 8, 0)],
  ])('until tomorrow from %s ends at %s', (from, to) => {
    expect(tomorrowMorning(from.getTime())).toBe(to.getTime());
  });

  it('takes a typed span as the engine would, and refuses what is none or past a week', () => {
    expect(pauseSpan('2h30m')).toEqual({ seconds: 9_000 });
    expect(pauseSpan(' 45m ')).toEqual({ seconds: 2_700 });
    expect(pauseSpan('soon')).toEqual({ problem: 'a pause is a span like 30m, 2h or 1h30m, not "soon"' });
    expect(pauseSpan('')).toHaveProperty('problem');
    expect(pauseSpan('8d')).toEqual({ problem: 'a pause is at most a week (7d)' });
    expect(pauseSpan('7d')).toEqual({ seconds: 604_800 });
  });
});
