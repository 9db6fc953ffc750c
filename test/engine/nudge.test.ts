import { describe, expect, it } from 'vitest';
import { nudgeDueAt, nudgeFor, type NudgeFacts } from '../../electron/engine/sizer/nudge.js';
import { moodOf } from '../../electron/engine/sizer/mood.js';

const TICK = 60_000;
const NOW = 5_000_000;
const facts = (o: Partial<NudgeFacts>): NudgeFacts => ({
  cap: 1,
  ceiling: 7,
  waiting: 4060,
  busy: 1,
  waitingSince: NOW - TICK,
  now: NOW,
  tickMs: TICK,
  machineInUse: 1,
  perMinute: 0,
  quiet: null,
  ...o,
});

describe('nudge', () => {
  it('fires when every allowed worker is busy and work has waited a tick', () => {
    expect(nudgeFor(facts({}))).toEqual({
      text: '4,060 waiting and all 1 worker busy. Raise the cap to run more at once — this machine allows up to 7.',
      waiting: 4060,
      busy: 1,
      ceiling: 7,
      suggestedCap: 7,
      estimate: null,
    });
  });

  it.each([
    ['the lane keeps up (nothing waiting)', { waiting: 0, waitingSince: null }],
    ['the sizer has room it has not taken', { cap: 3, busy: 2 }],
    ['at the machine ceiling', { cap: 7, busy: 7, machineInUse: 7 }],
    ['the machine budget is spent by other lanes', { machineInUse: 7 }],
    ['work has waited less than a tick', { waitingSince: NOW - TICK + 1 }],
  ])('is silent when %s', (_why, o) => {
    expect(nudgeFor(facts(o))).toBeNull();
  });

  it('speaks to a lane at cap 0 with backlog', () => {
    const n = nudgeFor(facts({ cap: 0, busy: 0, waiting: 12, machineInUse: 0 }));
    expect(n?.text).toBe('12 waiting and this lane may use no workers (cap 0). Raise the cap to run them — this machine allows up to 7.');
    expect(n?.suggestedCap).toBe(7);
  });

  it.each([
    [1, 3, '3 waiting and all 1 worker busy'],
    [2, 1, '1 waiting and all 2 workers busy'],
    [3, 1_234_567, '1,234,567 waiting and all 3 workers busy'],
  ])('with %i busy and %i waiting says "%s"', (busy, waiting, start) => {
    const n = nudgeFor(facts({ cap: busy, busy, waiting, machineInUse: busy }));
    expect(n?.text.startsWith(start + '.')).toBe(true);
  });

  it('suggests a cap that covers the backlog, within the ceiling', () => {
    expect(nudgeFor(facts({ cap: 2, busy: 2, waiting: 3, machineInUse: 2 }))?.suggestedCap).toBe(5);
    expect(nudgeFor(facts({ cap: 2, busy: 2, waiting: 300, machineInUse: 2 }))?.suggestedCap).toBe(7);
  });
});

describe('one suggestion, whatever the pace', () => {
  it('the finding: 4,956 waiting, up to 7 — 7 before there is a pace, 7 once there is one, 7 after a step', () => {
    const seen = [0, 12, 60, 600].map((perMinute) => nudgeFor(facts({ waiting: 4956, perMinute }))?.suggestedCap);
    expect(seen).toEqual([7, 7, 7, 7]);
    // Had the person raised to 2, the suggestion is still the headroom, not 3.
    expect(nudgeFor(facts({ cap: 2, busy: 2, machineInUse: 2, waiting: 4955, perMinute: 120 }))?.suggestedCap).toBe(7);
  });

  it('says what it buys: the estimate at the current cap and at the suggested one', () => {
    // 1 worker does 300 a minute: 4,957 jobs take about 17 min at 1, about 2 min at 7.
    const n = nudgeFor(facts({ waiting: 4956, perMinute: 300 }))!;
    expect(n.estimate).toEqual({ atCapMs: Math.round((4957 / 300) * 60_000), atSuggestedMs: Math.round((4957 / 300 / 7) * 60_000) });
    expect(n.text).toContain('about 17 min at 1 worker, about 2 min at 7');
  });

  it('says what it buys from the running jobs’ own progress where they give it, before any pace', () => {
    // One 10-minute job at 5 % after 30 s (9.5 min left), 6 more waiting of 10 min each: at 1
    // worker 9.5 + 60 min; at 7, all of it spread over 7 workers (never less than the running one's 9.5 min).
    const n = nudgeFor(facts({ waiting: 6, perMinute: 0, runs: { leftMs: [9.5 * 60_000], jobMs: 10 * 60_000 } }))!;
    expect(n.estimate).toEqual({ atCapMs: 69.5 * 60_000, atSuggestedMs: Math.round((69.5 * 60_000) / 7) });
    expect(nudgeFor(facts({ waiting: 1, cap: 1, runs: { leftMs: [9.5 * 60_000], jobMs: 60_000 } }))!.estimate).toEqual({ atCapMs: 10.5 * 60_000, atSuggestedMs: 9.5 * 60_000 });
    expect(n.text).toContain('about 70 min at 1 worker, about 10 min at 7');
  });

  it('a memory-bound lane suggests what fits', () => {
    expect(nudgeFor(facts({ limit: 3, waiting: 500, perMinute: 50 }))?.suggestedCap).toBe(3);
  });
});

describe('the nudge promises what the lane gets now', () => {
  it('another lane holds one of the 7: 6 now, naming it', () => {
    const n = nudgeFor(facts({ cap: 2, busy: 2, machineInUse: 3, waiting: 297, othersHold: [{ lane: 'worker', workers: 1 }] }))!;
    expect(n.suggestedCap).toBe(6);
    expect(n.text).toBe('297 waiting and all 2 workers busy. Raise the cap to run more at once — this machine allows up to 7; 6 now — worker holds 1.');
  });

  it('several lanes hold some: the larger first; within memory the fit is the bound', () => {
    const n = nudgeFor(facts({ cap: 1, busy: 1, machineInUse: 4, waiting: 300, limit: 5, othersHold: [{ lane: 'b', workers: 1 }, { lane: 'a', workers: 2 }, { lane: 'c', workers: 0 }] }))!;
    expect(n.suggestedCap).toBe(4);
    expect(n.text).toMatch(/this machine has memory for 5 of these workers; 4 now — a holds 2, b holds 1\.$/);
  });

  it('other lanes idle or holding nothing: the whole ceiling, as before', () => {
    const n = nudgeFor(facts({ othersHold: [{ lane: 'worker', workers: 0 }] }))!;
    expect(n.suggestedCap).toBe(7);
    expect(n.text).toMatch(/this machine allows up to 7\.$/);
  });
});

describe('nudgeDueAt', () => {
  it('names the moment a lane held by its cap will have waited a tick', () => {
    expect(nudgeDueAt(facts({ waitingSince: NOW - 1000 }))).toBe(NOW - 1000 + TICK);
  });
  it.each([
    ['already due (the nudge shows now)', { waitingSince: NOW - TICK }],
    ['the lane is not held by its cap', { cap: 3, busy: 2, waitingSince: NOW - 1000 }],
    ['the machine is full', { machineInUse: 7, waitingSince: NOW - 1000 }],
    ['nothing waits', { waiting: 0, waitingSince: null }],
  ])('is null when %s', (_why, o) => {
    expect(nudgeDueAt(facts(o))).toBeNull();
  });
});

describe('mood', () => {
  it.each([
    [{ cap: 0, ceiling: 7, waiting: 5, busy: 0, running: 0 }, 'off'],
    [{ cap: 2, ceiling: 7, waiting: 0, busy: 0, running: 0 }, 'idle'],
    [{ cap: 2, ceiling: 7, waiting: 0, busy: 1, running: 2 }, 'working'],
    [{ cap: 2, ceiling: 7, waiting: 9, busy: 2, running: 2 }, 'saturated'],
    [{ cap: 4, ceiling: 7, waiting: 9, busy: 1, running: 1 }, 'sharing'],
    // The machine, not the cap: its memory allows one, or the battery's ceiling is below the cap.
    [{ cap: 4, ceiling: 7, limit: 0, waiting: 9, busy: 0, running: 0 }, 'held'],
    [{ cap: 7, ceiling: 3, waiting: 9, busy: 3, running: 3 }, 'held'],
  ] as const)('%o is %s', (f, mood) => {
    expect(moodOf({ ...f, paused: false })).toBe(mood);
  });
});
