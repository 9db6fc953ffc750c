// Notices for finished batches and failed jobs: grouped, never one per job, and not for a trickle.
import { describe, expect, it, vi } from 'vitest';
import { ACTIVITY_RULES, activityNotices, emptyActivityMemory, isBatch, type ActivityMemory, type LaneCounts } from '../../electron/shell/activity-notice.js';
import { noticeFeed, type Notice } from '../../electron/shell/notice-feed.js';
import { createShellStore } from '../../electron/shell/shell-state.js';
import type { Timers } from '../../electron/shell/coalesce.js';
import { lane, shell, status } from './fixtures.js';

const { settleMs, groupMs, repeatMs } = ACTIVITY_RULES;

const counts = (name: string, c: Partial<LaneCounts> = {}): LaneCounts => ({ name, waiting: 0, delayed: 0, running: 0, succeeded: 0, failed: 0, cancelled: 0, ...c });

/** Each look at the lanes in turn: the titles said at each, and the last wake-up asked for. */
function run(steps: { at: number; lanes: LaneCounts[] }[]) {
  let memory: ActivityMemory = emptyActivityMemory;
  let wakeAt: number | null = null;
  const said = steps.map(({ at, lanes }) => {
    const next = activityNotices(memory, lanes, at);
    memory = next.memory;
    wakeAt = next.wakeAt;
    return next.notices.map((n) => `${n.title} | ${n.body}`);
  });
  return { said, wakeAt };
}

describe('a finished batch', () => {
  it.each([
    {
      name: '300 jobs drain, and the lane stays empty: one notice, after it settled',
      steps: [
        { at: 0, lanes: [counts('w')] },
        { at: 1_000, lanes: [counts('w', { waiting: 299, running: 1 })] },
        { at: 60_000, lanes: [counts('w', { waiting: 10, running: 1, succeeded: 289 })] },
        { at: 70_000, lanes: [counts('w', { succeeded: 297, failed: 3 })] },
        { at: 70_000 + settleMs - 1, lanes: [counts('w', { succeeded: 297, failed: 3 })] },
        { at: 70_000 + settleMs, lanes: [counts('w', { succeeded: 297, failed: 3 })] },
        { at: 80_000, lanes: [counts('w', { succeeded: 297, failed: 3 })] },
      ],
      said: [[], [], [], [], [], ['Done: 300 jobs in w | 297 succeeded, 3 failed — about 69 s.'], []],
    },
    {
      name: 'a lane that empties between chunks is not done until it stays empty',
      steps: [
        { at: 0, lanes: [counts('w', { waiting: 20 })] },
        { at: 5_000, lanes: [counts('w', { succeeded: 20 })] },
        { at: 6_000, lanes: [counts('w', { succeeded: 20, waiting: 20 })] },
        { at: 5_000 + settleMs, lanes: [counts('w', { succeeded: 20, waiting: 20 })] },
        { at: 20_000, lanes: [counts('w', { succeeded: 40 })] },
        { at: 20_000 + settleMs, lanes: [counts('w', { succeeded: 40 })] },
      ],
      said: [[], [], [], [], [], ['Done: 40 jobs in w | All succeeded — about 20 s.']],
    },
    {
      name: 'a trickle of single jobs is no batch',
      steps: [
        { at: 0, lanes: [counts('w')] },
        { at: 1_000, lanes: [counts('w', { running: 1 })] },
        { at: 2_000, lanes: [counts('w', { succeeded: 1 })] },
        { at: 2_000 + settleMs, lanes: [counts('w', { succeeded: 1 })] },
        { at: 30_000, lanes: [counts('w', { succeeded: 1, running: 1 })] },
        { at: 31_000, lanes: [counts('w', { succeeded: 2 })] },
        { at: 31_000 + settleMs, lanes: [counts('w', { succeeded: 2 })] },
      ],
      said: [[], [], [], [], [], [], []],
    },
    {
      name: 'a batch queued and finished between two looks still counts',
      steps: [
        { at: 0, lanes: [counts('w', { succeeded: 5 })] },
        { at: 250, lanes: [counts('w', { succeeded: 17 })] },
        { at: 250 + settleMs, lanes: [counts('w', { succeeded: 17 })] },
      ],
      said: [[], [], ['Done: 12 jobs in w | All succeeded — about 1 s.']],
    },
    {
      name: 'cancelled jobs are mentioned but do not make a batch',
      steps: [
        { at: 0, lanes: [counts('w', { waiting: 4533, running: 1 })] },
        { at: 10_000, lanes: [counts('w', { succeeded: 3, cancelled: 4531 })] },
        { at: 10_000 + settleMs, lanes: [counts('w', { succeeded: 3, cancelled: 4531 })] },
        { at: 20_000, lanes: [counts('w', { succeeded: 3, cancelled: 4531, waiting: 12 })] },
        { at: 30_000, lanes: [counts('w', { succeeded: 15, cancelled: 4532 })] },
        { at: 30_000 + settleMs, lanes: [counts('w', { succeeded: 15, cancelled: 4532 })] },
      ],
      said: [[], [], [], [], [], ['Done: 12 jobs in w | All succeeded, 1 cancelled — about 10 s.']],
    },
    {
      name: 'a few long jobs make a batch',
      steps: [
        { at: 0, lanes: [counts('ml', { waiting: 2 })] },
        { at: 10 * 60_000, lanes: [counts('ml', { succeeded: 2 })] },
        { at: 10 * 60_000 + settleMs, lanes: [counts('ml', { succeeded: 2 })] },
      ],
      said: [[], [], ['Done: 2 jobs in ml | All succeeded — about 10 min.']],
    },
    {
      name: 'a lane seen for the first time empty, with old counts, is not news',
      steps: [
        { at: 0, lanes: [counts('w', { succeeded: 900, failed: 12 })] },
        { at: settleMs, lanes: [counts('w', { succeeded: 900, failed: 12 })] },
        { at: settleMs + groupMs, lanes: [counts('w', { succeeded: 900, failed: 12 })] },
      ],
      said: [[], [], []],
    },
  ])('$name', ({ steps, said }) => {
    expect(run(steps).said).toEqual(said);
  });

  it('asks to be woken when the lane will have settled', () => {
    const { wakeAt } = run([
      { at: 0, lanes: [counts('w', { waiting: 20 })] },
      { at: 5_000, lanes: [counts('w', { succeeded: 20 })] },
    ]);
    expect(wakeAt).toBe(5_000 + settleMs);
  });

  it.each([
    [10, 1_000, true],
    [9, 1_000, false],
    [2, ACTIVITY_RULES.longMs, true],
    [1, 60 * 60_000, false],
  ])('isBatch(%i jobs, %i ms) = %s', (jobs, ms, yes) => {
    expect(isBatch(jobs, ms)).toBe(yes);
  });
});

describe('failed jobs', () => {
  it.each([
    {
      name: 'three failures a second apart: one notice once the group closes',
      steps: [
        { at: 0, lanes: [counts('w', { running: 5 })] },
        { at: 1_000, lanes: [counts('w', { running: 4, failed: 1 })] },
        { at: 2_000, lanes: [counts('w', { running: 3, failed: 2 })] },
        { at: 3_000, lanes: [counts('w', { running: 2, failed: 3 })] },
        { at: 1_000 + groupMs, lanes: [counts('w', { running: 2, failed: 3 })] },
      ],
      said: [[], [], [], [], ['3 jobs failed in w | Open Lanes to see why.']],
    },
    {
      name: 'a lane that keeps failing is told again only after the repeat limit',
      steps: [
        { at: 0, lanes: [counts('w', { running: 1 })] },
        { at: 1, lanes: [counts('w', { running: 1, failed: 1 })] },
        { at: 1 + groupMs, lanes: [counts('w', { running: 1, failed: 1 })] },
        { at: 10_000, lanes: [counts('w', { running: 1, failed: 40 })] },
        { at: 10_000 + groupMs, lanes: [counts('w', { running: 1, failed: 80 })] },
        { at: 1 + groupMs + repeatMs, lanes: [counts('w', { running: 1, failed: 500 })] },
      ],
      said: [[], [], ['1 job failed in w | Open Lanes to see why.'], [], [], ['499 jobs failed in w | Open Lanes to see why.']],
    },
    {
      name: 'failures in two lanes at about the same time: one notice',
      steps: [
        { at: 0, lanes: [counts('w', { running: 2 }), counts('ml', { running: 1 })] },
        { at: 1_000, lanes: [counts('w', { running: 1, failed: 2 }), counts('ml', { running: 1 })] },
        { at: 2_000, lanes: [counts('w', { running: 1, failed: 2 }), counts('ml', { failed: 1 })] },
        { at: 1_000 + groupMs, lanes: [counts('w', { running: 1, failed: 2 }), counts('ml', { failed: 1 })] },
      ],
      said: [[], [], [], ['3 jobs failed | 2 in w, 1 in ml. Open Lanes to see why.']],
    },
    {
      name: 'a retry lowering the count is no failure; failing again is',
      steps: [
        { at: 0, lanes: [counts('w', { failed: 3 })] },
        { at: 1_000, lanes: [counts('w', { failed: 0, waiting: 3 })] },
        { at: 2_000, lanes: [counts('w', { failed: 1, running: 2 })] },
        { at: 2_000 + groupMs, lanes: [counts('w', { failed: 1, running: 2 })] },
      ],
      said: [[], [], [], ['1 job failed in w | Open Lanes to see why.']],
    },
    {
      name: 'a batch that ends takes its failures into its own notice',
      steps: [
        { at: 0, lanes: [counts('w', { waiting: 11 })] },
        { at: 1_000, lanes: [counts('w', { succeeded: 9, failed: 2 })] },
        { at: 1_000 + settleMs, lanes: [counts('w', { succeeded: 9, failed: 2 })] },
        { at: 1_000 + groupMs + settleMs, lanes: [counts('w', { succeeded: 9, failed: 2 })] },
      ],
      said: [[], [], ['Done: 11 jobs in w | 9 succeeded, 2 failed — about 1 s.'], []],
    },
    {
      name: 'a job that fails with two dependents that never ran: said with it, as did not run',
      steps: [
        { at: 0, lanes: [counts('w', { running: 1, waiting: 0 })] },
        { at: 1_000, lanes: [counts('w', { failed: 1, blocked: 2 })] },
        { at: 1_000 + groupMs, lanes: [counts('w', { failed: 1, blocked: 2 })] },
      ],
      said: [[], [], ['1 job failed in w | 2 did not run: a job they run after did not succeed. Open Lanes to see why.']],
    },
    {
      name: 'dependents of a cancelled job are the news when nothing failed, lane by lane',
      steps: [
        { at: 0, lanes: [counts('w'), counts('ml')] },
        { at: 1_000, lanes: [counts('w', { blocked: 2, cancelled: 1 }), counts('ml', { blocked: 1 })] },
        { at: 1_000 + groupMs, lanes: [counts('w', { blocked: 2, cancelled: 1 }), counts('ml', { blocked: 1 })] },
      ],
      said: [[], [], ['3 jobs did not run | 2 in w, 1 in ml. Open Lanes to see why.']],
    },
    {
      name: 'a batch that ends counts the dependents that did not run apart from its failures',
      steps: [
        { at: 0, lanes: [counts('w', { waiting: 12 })] },
        { at: 1_000, lanes: [counts('w', { succeeded: 9, failed: 1, blocked: 2 })] },
        { at: 1_000 + settleMs, lanes: [counts('w', { succeeded: 9, failed: 1, blocked: 2 })] },
      ],
      said: [[], [], ['Done: 12 jobs in w | 9 succeeded, 1 failed, 2 did not run — about 1 s.']],
    },
    {
      name: 'a removed lane\'s unsaid failures are forgotten',
      steps: [
        { at: 0, lanes: [counts('w', { running: 1 })] },
        { at: 1_000, lanes: [counts('w', { failed: 1 })] },
        { at: 2_000, lanes: [] },
        { at: 1_000 + groupMs, lanes: [] },
      ],
      said: [[], [], [], []],
    },
  ])('$name', ({ steps, said }) => {
    expect(run(steps).said).toEqual(said);
  });
});

describe('the notice feed', () => {
  /** Timers the test moves by hand. */
  function fakeClock() {
    let t = 0;
    const pending = new Map<number, { at: number; fn: () => void }>();
    let nextId = 1;
    const timers: Timers = {
      setTimeout: (fn, ms) => (pending.set(nextId, { at: t + ms, fn }), nextId++),
      clearTimeout: (id) => void pending.delete(id as number),
    };
    const advance = (to: number) => {
      t = to;
      for (const [id, p] of [...pending].sort((a, b) => a[1].at - b[1].at)) {
        if (p.at > t) continue;
        pending.delete(id);
        p.fn();
      }
    };
    return { timers, now: () => t, advance, pending };
  }

  it('says a batch is done when the lane stays empty, with no event to prompt it', () => {
    const clock = fakeClock();
    const store = createShellStore(shell(status([lane('w', { waiting: 20 })])));
    const shown: Notice[] = [];
    noticeFeed({ store, show: (n) => shown.push(n), now: clock.now, timers: clock.timers });
    store.set({ status: status([lane('w', { waiting: 20 })]) });
    clock.advance(4_000);
    store.set({ status: status([lane('w', { succeeded: 20 })]) });
    expect(shown).toEqual([]);
    clock.advance(4_000 + settleMs);
    expect(shown.map((n) => n.title)).toEqual(['Done: 20 jobs in w']);
    expect(clock.pending.size).toBe(0);
  });

  it('shows nudges as before, says nothing while quitting, and stops its timer when closed', () => {
    const clock = fakeClock();
    const store = createShellStore(shell(null));
    const shown: Notice[] = [];
    const close = noticeFeed({ store, show: (n) => shown.push(n), now: clock.now, timers: clock.timers });
    store.set({ status: status([lane('w', { running: 1, waiting: 50, nudge: { text: '', waiting: 50, busy: 1, ceiling: 3, suggestedCap: 3, estimate: null } })]) });
    expect(shown.map((n) => [n.kind, n.title])).toEqual([['nudge', 'Raise w to 3?']]);
    store.set({ status: status([lane('w', { running: 1, failed: 1 })]) });
    store.set({ stopping: true });
    clock.advance(groupMs);
    expect(shown).toHaveLength(1);
    close();
    expect(clock.pending.size).toBe(0);
  });

  it('a timer set for an old look is replaced by a newer one', () => {
    const clock = fakeClock();
    const store = createShellStore(shell(status([lane('w', { running: 1 })])));
    const show = vi.fn();
    noticeFeed({ store, show, now: clock.now, timers: clock.timers });
    store.set({ status: status([lane('w', { running: 1 })]) });
    store.set({ status: status([lane('w', { running: 1, failed: 1 })]) });
    clock.advance(1_000);
    store.set({ status: status([lane('w', { running: 1, failed: 2 })]) });
    expect(clock.pending.size).toBe(1);
    clock.advance(groupMs);
    expect(show.mock.calls.map(([n]) => (n as Notice).title)).toEqual(['2 jobs failed in w']);
  });
});
