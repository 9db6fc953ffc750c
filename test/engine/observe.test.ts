// What one sizing pass sees of the lanes (sizer/pass.ts): those with work or workers, jobs in
// hands counted as taken, one demand per lane that status reads too, what it remembers of a lane
// forgotten once the lane has neither, and each step in order over plain data.
import { describe, expect, it } from 'vitest';
import { SizingPass, type PassInputs, type PassSnapshot, type WorkerView } from '../../electron/engine/sizer/pass.js';
import type { Decision, LaneObservation } from '../../electron/engine/sizer/policy.js';
import type { LaneCounts, LaneRow } from '../../electron/engine/store/lanes.js';
import { facts } from './machine/machine-fixtures.js';

const row = (name: string, cap = 1): LaneRow => ({ name, class: 'cpu', cap, workerCommand: null, workerCwd: null, timeoutMs: null, nudgeQuietUntil: null, nudgeQuietBacklog: null, queue: null });
const queued = (n: number): LaneCounts => ({ queued: n, running: 0, succeeded: 0, failed: 0, cancelled: 0 });
const worker = (id: string, lane: string, role: WorkerView['role'], more: Partial<WorkerView> = {}): WorkerView => ({ id, lane, role, since: role === 'busy' ? 500 : null, hand: 0, ...more });

function harness(over: { counts?: Map<string, LaneCounts>; workers?: WorkerView[]; now?: number; lanes?: LaneRow[] } = {}) {
  const state = {
    now: over.now ?? 1_000,
    counts: over.counts ?? new Map([['work', queued(3)], ['retry', queued(1)]]),
    workers: over.workers ?? [],
    lanes: over.lanes ?? ['idle-a', 'work', 'retry', 'has-worker', 'moved-to', 'idle-b'].map((n) => row(n)),
  };
  const decisions: { decision: Decision; lanes: readonly LaneObservation[] }[] = [];
  const published: PassSnapshot[] = [];
  /** Each step as it happens: what was released, decided, woken and published, in order. */
  const steps: string[] = [];
  const inputs: PassInputs = {
    releaseDue: (now) => void steps.push(`release ${now}`),
    lanes: { list: () => state.lanes, allCounts: () => state.counts },
    notYet: () => new Map([['retry', { n: 1, next: 5_000 }]]),
    workers: () => state.workers,
    startsBlockedUntil: () => null,
    machine: { facts: () => facts({ at: state.now }), costOf: () => null, measured: () => false },
    paused: () => false,
    now: () => state.now,
    tickMs: 60_000,
  };
  const pass = new SizingPass(inputs, {
    carryOut: (decision, lanes) => {
      steps.push('carry out');
      decisions.push({ decision, lanes });
    },
    wake: (lanes) => void steps.push(`wake ${lanes.join(',')}`),
    published: (s) => {
      steps.push('publish');
      published.push(s);
    },
  });
  return { state, pass, decisions, published, steps };
}

const seenOf = (h: ReturnType<typeof harness>) => new Map(h.decisions.at(-1)!.lanes.map((l) => [l.name, l]));

describe('one sizing pass', () => {
  it('shows the lanes with work, a retry to come or a worker of their own or on its way; the rest sit the pass out', () => {
    const h = harness({ workers: [worker('w1', 'has-worker', 'busy', { moveTo: 'moved-to' })] });
    h.pass.run();
    const byName = seenOf(h);
    expect([...byName.keys()].sort()).toEqual(['has-worker', 'moved-to', 'retry', 'work']);
    expect(byName.get('has-worker')).toMatchObject({ leaving: 1, busy: [] });
    expect(byName.get('moved-to')).toMatchObject({ arriving: 1, servedSince: 1_000 });
    expect(byName.get('retry')).toMatchObject({ waiting: 0, nextRetryAt: 5_000 });
  });

  it('counts jobs in a worker’s hand as taken, not waiting, and publishes the one demand everyone reads', () => {
    const h = harness({ workers: [worker('w1', 'work', 'busy', { hand: 2 })] });
    h.pass.run();
    const l = seenOf(h).get('work')!;
    expect([l.waiting, l.busy]).toEqual([1, ['w1']]);
    expect(h.published.at(-1)!.demand.get('work')).toEqual({ ready: 1, inHand: 2, notYet: 0, afterJobs: 0, scheduled: 0, scheduledNext: null, nextReadyAt: null, running: 0 });
    expect(h.published.at(-1)!.demand.get('retry')).toEqual({ ready: 0, inHand: 0, notYet: 1, afterJobs: 0, scheduled: 0, scheduledNext: null, nextReadyAt: 5_000, running: 0 });
  });

  it('releases what is due, decides, applies and publishes in that order, once per pass, and the published machine is this pass’s', () => {
    const h = harness();
    h.pass.run();
    expect(h.steps).toEqual(['release 1000', 'carry out', 'publish']);
    expect(h.decisions).toHaveLength(1);
    expect(h.published).toHaveLength(1);
    expect(h.decisions[0]!.decision.actions.map((a) => a.kind)).toEqual(['start']);
    expect(h.published[0]!.at).toBe(1_000);
    expect(h.published[0]!.machine.cores).toBe(8);
    expect(h.pass.snapshot).toBe(h.published[0]);
  });

  it('after its actions, the idle workers of lanes with ready work pull; a lane with none, or no idle worker, is left', () => {
    const h = harness({ workers: [worker('w1', 'work', 'idle'), worker('w2', 'retry', 'idle'), worker('w3', 'has-worker', 'busy')] });
    h.pass.run();
    expect(h.steps).toEqual(['release 1000', 'carry out', 'wake work', 'publish']);
  });

  it('what a person sees is the last snapshot until jobs move; then they are observed afresh, deciding nothing', () => {
    const h = harness();
    h.pass.run();
    const first = h.pass.current();
    expect(first).toBe(h.published.at(-1));
    h.state.counts = new Map([['work', queued(7)]]);
    expect(h.pass.current()).toBe(first);
    h.pass.jobsMoved();
    const fresh = h.pass.current();
    expect(fresh).not.toBe(first);
    expect(fresh.demand.get('work')?.ready).toBe(7);
    expect(h.decisions).toHaveLength(1);
    expect(h.pass.current()).toBe(fresh);
  });

  it('forgets since when a lane was served or waited once it has neither work nor worker', () => {
    const h = harness();
    h.pass.run();
    expect(h.pass.history.waitingSince.get('work')).toBe(1_000);
    h.state.now = 2_000;
    h.state.counts = new Map();
    h.pass.run();
    expect(h.pass.history.waitingSince.has('work')).toBe(false);
  });

  it('a person’s cap change since the last pass is seen as one', () => {
    const h = harness({ lanes: [row('work', 1)] });
    h.pass.run();
    h.state.lanes = [row('work', 3)];
    h.pass.run();
    expect(seenOf(h).get('work')!.capWas).toBe(1);
  });
});
