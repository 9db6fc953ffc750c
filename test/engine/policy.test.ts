// The sizer's rules, one row each. The policy is pure, so every case is data in, actions out.
import { describe, expect, it } from 'vitest';
import { decide, type Action, type Observation } from '../../electron/engine/sizer/policy.js';
import { lane, observe, NOW, TICK } from './policy-fixtures.js';
import { facts, GiB, MiB } from './machine/machine-fixtures.js';

/** A pass's observation with the machine's latest reading and the busy workers of each lane. */
const withReading = (o: Observation, available: number, lastAt: number | null = null): Observation => ({
  ...o,
  critical: {
    facts: facts({ at: NOW, memory: { total: 16 * GiB, available } }),
    lanes: o.lanes.map((l) => ({ name: l.name, costBytes: l.class === 'ml' ? 4 * GiB : 300 * MiB, busy: l.busy.map((id, i) => ({ id, since: NOW - 1000 + i })) })),
    lastAt,
  },
});

/** Actions as short strings: "start worker 2 (demand)", "drain worker worker-b0 (cap)". */
const brief = (actions: Action[]) =>
  actions.map((a) =>
    a.kind === 'start'
      ? `start ${a.lane} ${a.count} (${a.reason})`
      : a.kind === 'critical'
        ? `critical ${a.lane} ${a.worker}`
        : `${a.kind} ${a.lane} ${a.workers.join(',')}${a.kind === 'move' ? ` → ${a.target.lane}` : ''} (${a.reason})`,
  );

describe('decide', () => {
  const cases: { name: string; o: Observation; want: string[] }[] = [
    { name: 'an idle machine does nothing', o: observe(7, [lane('worker'), lane('ml', { cap: 0, class: 'ml' })]), want: [] },
    { name: 'backlog grows a lane to its cap at once', o: observe(7, [lane('worker', { cap: 4, waiting: 100 })]), want: ['start worker 4 (demand)'] },
    { name: 'growth is bounded by the backlog', o: observe(7, [lane('worker', { cap: 4, waiting: 2 })]), want: ['start worker 2 (demand)'] },
    { name: 'growth is bounded by the ceiling', o: observe(3, [lane('worker', { cap: 3, waiting: 100, busy: 1 }), lane('x', { cap: 3 })]), want: ['start worker 2 (demand)'] },
    { name: 'raising the cap grows the lane in the same pass', o: observe(7, [lane('worker', { cap: 5, busy: 1, waiting: 4060 })]), want: ['start worker 4 (demand)'] },
    {
      name: 'memory critically low: the newest busy worker of the costliest lane is stopped, as one of the pass’s actions',
      o: withReading(observe(7, [lane('worker', { cap: 2, busy: 2 }), lane('ml', { class: 'ml', cap: 2, busy: 2 })]), 200 * MiB),
      want: ['critical ml ml-b1'],
    },
    {
      name: 'memory critically low while paused: the stop still comes first',
      o: { ...withReading(observe(7, [lane('ml', { class: 'ml', cap: 2, busy: 1 })]), 200 * MiB), paused: true },
      want: ['critical ml ml-b0', 'drain ml ml-b0 (pause)'],
    },
    { name: 'memory critically low, but this reading already stopped one: nothing more', o: withReading(observe(7, [lane('ml', { class: 'ml', cap: 2, busy: 2 })]), 200 * MiB, NOW), want: [] },
    { name: 'memory not critically low: nothing is stopped for it', o: withReading(observe(7, [lane('ml', { class: 'ml', cap: 2, busy: 2 })]), 8 * GiB), want: [] },
    { name: 'cap 0 never starts a worker', o: observe(7, [lane('ml', { cap: 0, class: 'ml', waiting: 50 })]), want: [] },
    {
      name: 'a lowered cap stops idle excess now and drains busy excess',
      o: observe(7, [lane('worker', { cap: 1, idle: 1, busy: 3, waiting: 10 })]),
      want: ['stop worker worker-i0 (cap)', 'drain worker worker-b1,worker-b2 (cap)'],
    },
    { name: 'cap 0 drains every busy worker, kills none', o: observe(7, [lane('worker', { cap: 0, busy: 2 })]), want: ['drain worker worker-b0,worker-b1 (cap)'] },
    { name: 'falling demand: an idle worker goes once surplus for a tick', o: observe(7, [lane('worker', { cap: 4, idle: 3, surplusSince: NOW - TICK })]), want: ['stop worker worker-i0 (idle)'] },
    { name: 'falling demand: nothing before it has been surplus a tick', o: observe(7, [lane('worker', { cap: 4, idle: 3, surplusSince: NOW - TICK + 1 })]), want: [] },
    { name: 'falling demand: one per tick, however many passes', o: observe(7, [lane('worker', { cap: 4, idle: 3, surplusSince: NOW - 5 * TICK, lastShrinkAt: NOW - 1000 })]), want: [] },
    { name: 'ml shrinks slower than cpu', o: observe(7, [lane('ml', { class: 'ml', cap: 2, idle: 2, surplusSince: NOW - 2 * TICK, lastShrinkAt: NOW - 2 * TICK })]), want: [] },
    { name: 'ml shrinks after three ticks', o: observe(7, [lane('ml', { class: 'ml', cap: 2, idle: 2, surplusSince: NOW - 3 * TICK, lastShrinkAt: NOW - 3 * TICK })]), want: ['stop ml ml-i0 (idle)'] },
    { name: 'busy workers are never stopped for falling demand', o: observe(7, [lane('worker', { cap: 4, busy: 3, surplusSince: NOW - 9 * TICK })]), want: [] },
    {
      name: 'budget: every lane with backlog gets one before any gets a second',
      o: observe(3, [lane('a', { cap: 3, waiting: 500 }), lane('b', { cap: 3, waiting: 5 }), lane('c', { cap: 3, waiting: 1 })]),
      want: ['start a 1 (demand)', 'start b 1 (demand)', 'start c 1 (demand)'],
    },
    {
      name: 'budget: the rest goes by backlog',
      o: observe(4, [lane('a', { cap: 4, waiting: 500 }), lane('b', { cap: 4, waiting: 5 })]),
      want: ['start a 3 (demand)', 'start b 1 (demand)'],
    },
    {
      name: 'budget: a newcomer gets a worker by draining the biggest lane after its job',
      o: observe(3, [lane('a', { cap: 3, busy: 3, waiting: 50 }), lane('b', { cap: 1, waiting: 1 })]),
      want: ['drain a a-b2 (budget)'],
    },
    {
      name: 'budget: an idle worker another lane is waiting for goes now, not at the shrink pace',
      o: observe(2, [lane('a', { cap: 2, idle: 1, busy: 1 }), lane('b', { cap: 1, waiting: 3 })]),
      want: ['stop a a-i0 (budget)'],
    },
    {
      name: 'budget: a draining worker still counts against the ceiling',
      o: observe(3, [lane('a', { cap: 3, busy: 2, leaving: 1, waiting: 50 }), lane('b', { cap: 1, waiting: 1 })]),
      want: [],
    },
    {
      name: 'budget: a settled split is not reshuffled when backlogs cross',
      o: observe(3, [lane('a', { cap: 3, busy: 2, waiting: 10 }), lane('b', { cap: 3, busy: 1, waiting: 90 })]),
      want: [],
    },
    // Shell lanes: their workers move between lanes instead of stopping and starting.
    {
      name: 'moves: an idle shell worker goes to a waiting shell lane at once',
      o: observe(1, [lane('a', { movable: true, idle: 1 }), lane('b', { movable: true, waiting: 3, waitingSince: NOW - 10 })]),
      want: ['move a a-i0 → b (turn)'],
    },
    {
      name: 'moves: a worker on its way counts for the lane it goes to, so none is started for it',
      o: observe(2, [lane('a', { movable: true, busy: 1, waiting: 9, servedSince: NOW - 10 }), lane('b', { movable: true, leaving: 1 }), lane('c', { movable: true, arriving: 1, waiting: 4 })]),
      want: [],
    },
    // More lanes want the machine than it has workers: turns.
    {
      name: 'turns: lanes within their turn keep their workers, whatever the backlog of a lane that waits',
      o: observe(2, [
        lane('a', { movable: true, busy: 1, waiting: 5, servedSince: NOW - 100 }),
        lane('b', { movable: true, busy: 1, waiting: 5, servedSince: NOW - 100 }),
        lane('c', { movable: true, waiting: 900, waitingSince: NOW - 1900 }),
      ]),
      want: [],
    },
    {
      name: 'turns: a lane whose turn is over hands its worker, after this job, to the lane that waited longest',
      o: observe(2, [
        lane('a', { movable: true, busy: 1, waiting: 5, servedSince: NOW - 2500 }),
        lane('b', { movable: true, busy: 1, waiting: 5, servedSince: NOW - 100 }),
        lane('c', { movable: true, waiting: 1, waitingSince: NOW - 2500 }),
        lane('d', { movable: true, waiting: 900, waitingSince: NOW - 1000 }),
      ]),
      want: ['move a a-b0 → c (turn)'],
    },
    {
      name: 'turns: a persistent lane whose turn is over drains; the slot goes to the waiting lane when its worker leaves',
      o: observe(1, [lane('a', { busy: 1, waiting: 5, servedSince: NOW - 16_000 }), lane('b', { movable: true, waiting: 1, waitingSince: NOW - 16_000 })]),
      want: ['drain a a-b0 (budget)'],
    },
    {
      name: 'turns: with nobody waiting, a lane keeps its worker past its turn',
      o: observe(1, [lane('a', { movable: true, busy: 1, waiting: 5, servedSince: NOW - 60_000 })]),
      want: [],
    },
  ];
  it.each(cases)('$name', ({ o, want }) => {
    expect(brief(decide(o).actions)).toEqual(want);
  });

  it('is idempotent: applying a pass, then deciding again with the result, does nothing', () => {
    const before = observe(7, [lane('worker', { cap: 3, waiting: 10 }), lane('ml', { class: 'ml', cap: 1, waiting: 2 })]);
    expect(decide(before).actions).toHaveLength(2);
    const after = observe(7, [lane('worker', { cap: 3, idle: 3, waiting: 10 }), lane('ml', { class: 'ml', cap: 1, idle: 1, waiting: 2 })]);
    expect(decide(after).actions).toEqual([]);
    expect(decide(after).actions).toEqual([]);
  });

  it('converges: an idle lane walks down one worker per tick to zero and then stays', () => {
    let idle = 4;
    let lastShrinkAt: number | null = null;
    const surplusSince = NOW;
    const steps: number[] = [];
    for (let t = NOW; t <= NOW + 10 * TICK; t += TICK / 2) {
      const d = decide(observe(7, [lane('worker', { cap: 4, idle, lastShrinkAt, surplusSince })], t));
      for (const a of d.actions) {
        if (a.kind !== 'stop') continue;
        idle -= a.workers.length;
        lastShrinkAt = t;
        steps.push(t - NOW);
      }
    }
    expect(idle).toBe(0);
    expect(steps).toEqual([TICK, 2 * TICK, 3 * TICK, 4 * TICK]);
  });

  it('never plans more workers than the ceiling, whatever the lanes want', () => {
    for (let ceiling = 1; ceiling <= 8; ceiling++) {
      const lanes = ['a', 'b', 'c', 'd'].map((n, i) => lane(n, { cap: 8, waiting: (i + 1) * 37, busy: i === 0 ? Math.min(ceiling, 2) : 0 }));
      const d = decide(observe(ceiling, lanes));
      const started = d.actions.reduce((n, a) => n + (a.kind === 'start' ? a.count : 0), 0);
      const alive = lanes.reduce((n, l) => n + l.busy.length + l.idle.length + l.leaving, 0);
      expect(alive + started).toBeLessThanOrEqual(ceiling);
    }
  });

  it('tells the loop when a paced shrink becomes due', () => {
    const d = decide(observe(7, [lane('worker', { cap: 4, idle: 2, surplusSince: NOW - 1000 })]));
    expect(d.actions).toEqual([]);
    expect(d.wakeAt).toBe(NOW - 1000 + TICK);
    expect(d.surplus).toEqual(['worker']);
  });

  it('records from → to and a reason for every change', () => {
    const [a] = decide(observe(7, [lane('worker', { cap: 5, busy: 1, waiting: 9 })])).actions;
    expect(a).toMatchObject({ kind: 'start', lane: 'worker', from: 1, to: 5, reason: 'demand' });
  });
});

// The ledger's from/to are one measure: every worker the lane has alive, draining ones included,
// so a lowered cap's rows never jump between all workers and those staying.
describe('the ledger counts every worker alive', () => {
  const rows = (o: Observation) => decide(o).actions.map((a) => (a.kind === 'critical' ? a.kind : `${a.kind} ${a.from}→${a.to} ${'detail' in a ? a.detail : ''}`));
  const cases: { name: string; o: Observation; want: string[] }[] = [
    {
      name: 'cap lowered 4 → 1 with 1 idle and 3 busy: one stops, two drain, all still counted until they go',
      o: observe(7, [lane('worker', { cap: 1, capWas: 4, idle: 1, busy: 3, waiting: 10 })]),
      want: ['stop 4→3 cap lowered to 1', 'drain 3→3 cap lowered to 1: 2 workers finishing their jobs first'],
    },
    {
      name: 'lowered again while two still drain: they are counted, as lanes status shows them',
      o: observe(7, [lane('worker', { cap: 0, capWas: 1, busy: 1, leaving: 2, waiting: 10 })]),
      want: ['drain 3→3 cap lowered to 0: 1 worker finishing its job first'],
    },
    {
      name: 'raised while one drains: the start counts from every worker alive, and the backlog reads with separators',
      o: observe(7, [lane('worker', { cap: 4, capWas: 1, busy: 1, leaving: 1, waiting: 1978 })]),
      want: ['start 2→5 cap raised to 4: 1,978 waiting'],
    },
    {
      name: 'an idle worker going while another drains',
      o: observe(7, [lane('worker', { cap: 2, idle: 1, busy: 1, leaving: 1, surplusSince: NOW - 3_600_000 })]),
      want: ['stop 3→2 nothing waiting'],
    },
    {
      name: 'the next idle worker going while the last one stopped still exits: that one was counted out at its stop',
      o: observe(7, [lane('worker', { cap: 2, idle: 1, leaving: 1, countedOut: 1, surplusSince: NOW - 3_600_000 })]),
      want: ['stop 1→0 nothing waiting'],
    },
    {
      name: 'and it still holds its share of the machine: a lane that grows meanwhile has the rest',
      o: observe(2, [lane('worker', { cap: 2, idle: 0, leaving: 1, countedOut: 1 }), lane('batch', { cap: 2, waiting: 5 })]),
      want: ['start 0→1 5 waiting'],
    },
  ];
  for (const c of cases) it(c.name, () => expect(rows(c.o)).toEqual(c.want));
});
