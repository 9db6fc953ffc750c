// A notification when a nudge first appears: once, again only after it went away and came back.
import { describe, expect, it } from 'vitest';
import { emptyNoticeMemory, nudgeNotices, type NoticeMemory } from '../../electron/shell/nudge-notice.js';
import { lane, nudge } from './fixtures.js';

const QUIET = 60_000;

function run(steps: { at: number; lanes: ReturnType<typeof lane>[] }[]): string[][] {
  let memory: NoticeMemory = emptyNoticeMemory;
  return steps.map(({ at, lanes }) => {
    const next = nudgeNotices(memory, lanes, at, QUIET);
    memory = next.memory;
    return next.notices.map((n) => n.lane);
  });
}

const ml = (withNudge: boolean) => lane('ml', { nudge: withNudge ? nudge(3, 4060) : null });
const worker = (withNudge: boolean) => lane('worker', { nudge: withNudge ? nudge(2, 10) : null });

describe('nudgeNotices', () => {
  it('announces a nudge the first time it appears, not while it stays', () => {
    expect(run([{ at: 0, lanes: [ml(false)] }, { at: 1, lanes: [ml(true)] }, { at: 2, lanes: [ml(true)] }, { at: 3, lanes: [ml(true)] }])).toEqual([[], ['ml'], [], []]);
  });

  it('announces again after it went away and came back, outside the quiet period', () => {
    expect(run([{ at: 0, lanes: [ml(true)] }, { at: 10, lanes: [ml(false)] }, { at: QUIET + 1, lanes: [ml(true)] }])).toEqual([['ml'], [], ['ml']]);
  });

  it('does not repeat for a nudge flickering within the quiet period', () => {
    expect(run([{ at: 0, lanes: [ml(true)] }, { at: 10, lanes: [ml(false)] }, { at: 20, lanes: [ml(true)] }, { at: 30, lanes: [ml(true)] }])).toEqual([['ml'], [], [], []]);
  });

  it('tracks lanes separately', () => {
    expect(run([{ at: 0, lanes: [ml(true), worker(false)] }, { at: 1, lanes: [ml(true), worker(true)] }])).toEqual([['ml'], ['worker']]);
  });

  it('a removed lane is forgotten: a new lane of that name is new', () => {
    expect(run([{ at: 0, lanes: [ml(true)] }, { at: 1, lanes: [] }, { at: 2, lanes: [ml(true)] }])).toEqual([['ml'], [], ['ml']]);
  });

  it('a snoozed lane (the engine leaves its nudge out) is not announced; one whose backlog then grew is', () => {
    const snoozed = lane('ml', { waiting: 4060, nudge: null, nudgeQuietUntil: QUIET * 100 });
    const grown = lane('ml', { waiting: 9000, nudge: nudge(3, 9000), nudgeQuietUntil: QUIET * 100 });
    expect(run([{ at: 0, lanes: [ml(true)] }, { at: 10, lanes: [snoozed] }, { at: QUIET, lanes: [snoozed] }, { at: QUIET + 1, lanes: [grown] }])).toEqual([['ml'], [], [], ['ml']]);
  });

  it('says what raising buys, when there is a pace to say it by', () => {
    const withEstimate = lane('ml', { nudge: { ...nudge(3, 4060), estimate: { atCapMs: 38 * 60_000, atSuggestedMs: 12 * 60_000 } } });
    expect(nudgeNotices(emptyNoticeMemory, [withEstimate], 0).notices[0]?.body).toBe("4,060 waiting, 1 running. At 3: about 12 min instead of 38 min. Raise it or snooze it from ml's tray menu.");
  });

  it('says what to raise and why', () => {
    const { notices } = nudgeNotices(emptyNoticeMemory, [ml(true)], 0);
    expect(notices[0]).toMatchObject({ title: 'Raise ml to 3?', suggestedCap: 3 });
    expect(notices[0]?.body).toContain('4,060 waiting');
  });
});
