// The tray's words for lanes, nudges and pauses, as tables.
import { describe, expect, it } from 'vitest';
import { clockTime, laneDetail, laneTitle, largestBacklog, pausedLabel, raiseLabel } from '../../electron/shell/tray-words.js';
import { lane, nudge } from './fixtures.js';

/** Tuesday 3 June 2025, 14:30 local time. */
const NOW = new Date(2025, 5, 3, 14, 30).getTime();
const at = (day: number, hour: number, minute: number) => new Date(2025, 5, day, hour, minute).getTime();

describe('clockTime', () => {
  it.each([
    ['an hour ahead', at(3, 15, 30), '15:30'],
    ['padded', at(3, 15, 5), '15:05'],
    ['past midnight, within 12 h', at(4, 0, 30), '00:30'],
    ['tomorrow afternoon', at(4, 15, 0), 'Wed 15:00'],
    ['five days on', at(8, 9, 0), 'Sun 09:00'],
    ['beyond the week', at(20, 9, 0), '20 Jun 09:00'],
  ])('%s → %s', (_name, when, words) => {
    expect(clockTime(when, NOW)).toBe(words);
  });

  it('pausedLabel', () => {
    expect(pausedLabel({ since: NOW, until: at(3, 15, 30) }, NOW)).toBe('Paused until 15:30');
    expect(pausedLabel({ since: NOW, until: null }, NOW)).toBe('Paused until you resume');
  });
});

describe('lane words', () => {
  it.each([
    ['idle', lane('w'), 'w — idle'],
    ['waiting, nothing running', lane('w', { waiting: 2 }), 'w — 2 waiting'],
    ['running', lane('w', { running: 3, waiting: 4060 }), 'w — 3 running, 4,060 waiting'],
    ['off', lane('ml', { cap: 0 }), 'ml — off'],
    ['off with a backlog', lane('ml', { cap: 0, waiting: 12 }), 'ml — off, 12 waiting'],
    // Lowered to 0 while a job finishes: it is still running, which is what matters now.
    ['cap 0, still finishing', lane('ml', { cap: 0, running: 1 }), 'ml — 1 running'],
    ['paused with a backlog', lane('w', { mood: 'paused', waiting: 5 }), 'w — paused, 5 waiting'],
    ['nudged', lane('w', { running: 1, waiting: 9, nudge: nudge(3, 9) }), 'w — 1 running, 9 waiting · raise to 3?'],
    ['one scheduled, nothing else', lane('d', { scheduled: 1, scheduledNext: at(3, 16, 1) }), 'd — 1 scheduled for 16:01'],
    ['several scheduled: when the next is', lane('d', { scheduled: 3, scheduledNext: at(4, 5, 1) }), 'd — 3 scheduled, the next at Wed 05:01'],
    ['waiting for other jobs', lane('d', { waitingForJobs: 2 }), 'd — 2 waiting for other jobs'],
    ['running, and what waits after', lane('d', { running: 1, waiting: 2, waitingForJobs: 1, scheduled: 1, scheduledNext: at(3, 16, 1) }), 'd — 1 running, 2 waiting, 1 waiting for other jobs, 1 scheduled for 16:01'],
    ['off, holding scheduled work', lane('d', { cap: 0, scheduled: 1, scheduledNext: at(3, 16, 1) }), 'd — off, 1 scheduled for 16:01'],
    ['paused, holding dependents', lane('d', { mood: 'paused', waitingForJobs: 4 }), 'd — paused, 4 waiting for other jobs'],
    // Its longest-running job that says how far it has got.
    ['one job saying how far it has got', lane('ml', { running: 1, waiting: 3, longestJob: { id: 41, startedAt: 0, progress: { fraction: 0.3, done: 12000, total: 40000, at: 0 } } }), 'ml — 1 running (12,000 of 40,000), 3 waiting'],
    ['several running: the longest one’s word', lane('ml', { running: 3, longestJob: { id: 41, startedAt: 0, progress: { fraction: 0.305, at: 0 } } }), 'ml — 3 running (the longest at 30 %)'],
  ])('title: %s', (_name, l, words) => {
    expect(laneTitle(l, NOW)).toBe(words);
  });

  it.each([
    ['nothing to say', lane('w'), null],
    ['a pace but no ETA yet', lane('w', { throughputPerMin: 149.6 }), '150 done / min'],
    ['pace and ETA', lane('w', { throughputPerMin: 150, waiting: 4531, running: 2, etaMs: 38 * 60_000, etaState: 'known' }), '150 done / min · 4,533 left, about 38 min'],
    ['estimating, said as such', lane('w', { waiting: 10, running: 1, etaState: 'estimating' }), '11 left, estimating…'],
    ['paused: no time left is said', lane('w', { waiting: 10, running: 1, mood: 'paused', etaState: 'paused' }), null],
    ['an ETA with nothing left is not said', lane('w', { etaMs: 1000 }), null],
    ['failed and retrying', lane('w', { failed: 3, delayed: 2 }), '2 retrying later · 3 failed'],
  ])('detail: %s', (_name, l, words) => {
    expect(laneDetail(l)).toBe(words);
  });

  it.each([
    ['no pace yet', nudge(3, 4060), 'Raise to 3 — 4,060 waiting'],
    ['with what it buys', { ...nudge(7, 4060), estimate: { atCapMs: 3 * 3_600_000, atSuggestedMs: 25 * 60_000 } }, 'Raise to 7 — about 25 min instead of 3 h'],
  ])('raise: %s', (_name, n, words) => {
    expect(raiseLabel(n)).toBe(words);
  });

  it('largestBacklog picks the most waiting, the first on a tie, none when nothing waits', () => {
    expect(largestBacklog([{ waiting: 1, n: 'a' }, { waiting: 4666, n: 'b' }, { waiting: 30, n: 'c' }])?.n).toBe('b');
    expect(largestBacklog([{ waiting: 5, n: 'a' }, { waiting: 5, n: 'b' }])?.n).toBe('a');
    expect(largestBacklog([{ waiting: 0 }])).toBeNull();
    expect(largestBacklog([])).toBeNull();
  });
});
