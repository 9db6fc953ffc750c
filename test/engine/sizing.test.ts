// The always-on sizer against real worker processes: grow at once, drain on a lowered cap,
// give idle workers back one per tick, share the machine, and refuse bad input untouched.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ScaleEvent } from '../../shared/model.js';
import { nodeLauncher, type WorkerLauncher } from '../../electron/engine/index.js';
import { engineEachTest, jobsFinished, nextEvent, until } from '../support/engine.js';

const t = engineEachTest({ cores: 3 }); // no desktop, so nobody is known at the computer: all 3 cores, a ceiling of 3
const lane = (name: string) => t.engine.status().lanes.find((l) => l.name === name)!;

describe('sizing', () => {
  it('a fresh install ships worker at cap 1 and ml at cap 0, with no workers running', () => {
    expect(t.engine.status().lanes.map((l) => [l.name, l.class, l.cap, l.workers])).toEqual([
      ['worker', 'cpu', 1, 0],
      ['ml', 'ml', 0, 0],
    ]);
  });

  it('grows to the cap at once, nudges at the cap, and the nudge goes when the cap is raised', async () => {
    const gate = join(t.dir, 'gate');
    // Listen first: on a loaded machine the nudge can come in the same turn as the first start.
    const nudged = nextEvent(t.engine, (e) => e.type === 'lane' && e.data.name === 'worker' && e.data.nudge !== null);
    const { ids } = await t.engine.request('addJobs', { jobs: Array.from({ length: 6 }, () => ({ shell: `while [ ! -f ${gate} ]; do sleep 0.05; done` })) });
    const nudge = await nudged;
    expect(lane('worker').busy).toBe(1);
    expect(nudge.type === 'lane' && nudge.data.nudge?.text).toBe('5 waiting and all 1 worker busy. Raise the cap to run more at once — this machine allows up to 3.');

    // The ledger says what happened: the cap was raised, not merely "work waiting".
    const grown = nextEvent(t.engine, (e) => e.type === 'scale' && e.data.to > e.data.from);
    await t.engine.request('setCap', { lane: 'worker', cap: 3 });
    expect(((await grown).data as ScaleEvent)).toMatchObject({ from: 1, to: 3, reason: 'cap', detail: 'cap raised to 3: 5 waiting' });
    await until(t.engine, () => lane('worker').busy === 3 && lane('worker').nudge === null, 10_000, 'three busy, no nudge');
    writeFileSync(gate, '');
    await jobsFinished(t.engine, ids);
  });

  it('a lowered cap drains busy workers: their jobs finish, none is killed', async () => {
    await t.engine.request('setCap', { lane: 'worker', cap: 3 });
    const gate = join(t.dir, 'gate');
    const { ids } = await t.engine.request('addJobs', { jobs: Array.from({ length: 3 }, () => ({ shell: `while [ ! -f ${gate} ]; do sleep 0.05; done`, maxAttempts: 1 })) });
    await until(t.engine, () => lane('worker').busy === 3, 10_000, 'three busy');
    const rows: ScaleEvent[] = [];
    t.engine.events.subscribe((e) => e.type === 'scale' && e.data.lane === 'worker' && rows.push(e.data));
    const drained = nextEvent(t.engine, (e) => e.type === 'scale' && e.data.reason === 'cap');
    await t.engine.request('setCap', { lane: 'worker', cap: 1 });
    // Three are still at work: the ledger counts them out only as they leave.
    expect((await drained).data).toMatchObject({ lane: 'worker', from: 3, to: 3, reason: 'cap', detail: 'cap lowered to 1: 2 workers finishing their jobs first' });
    expect(lane('worker')).toMatchObject({ busy: 1, draining: 2 });
    writeFileSync(gate, '');
    const jobs = await jobsFinished(t.engine, ids);
    expect(jobs.map((j) => [j.state, j.attempts])).toEqual([['succeeded', 1], ['succeeded', 1], ['succeeded', 1]]);
    await until(t.engine, () => lane('worker').workers <= 1, 10_000, 'drained workers exit');
    const left = rows.filter((r) => r.detail === 'cap lowered to 1: finished its job and left');
    expect(left.map((r) => [r.from, r.to])).toEqual([[3, 2], [2, 1]]);
  });

  it('an idle lane gives its workers back one per tick, down to zero', async () => {
    await t.engine.request('setCap', { lane: 'worker', cap: 3 });
    const gate = join(t.dir, 'gate');
    const { ids } = await t.engine.request('addJobs', { jobs: Array.from({ length: 3 }, () => ({ shell: `while [ ! -f ${gate} ]; do sleep 0.05; done` })) });
    await until(t.engine, () => lane('worker').busy === 3, 10_000, 'three busy');
    const shrinks: ScaleEvent[] = [];
    t.engine.events.subscribe((e) => e.type === 'scale' && e.data.reason === 'idle' && shrinks.push(e.data));
    writeFileSync(gate, '');
    await jobsFinished(t.engine, ids);
    await until(t.engine, () => lane('worker').workers === 0, 20_000, 'zero workers');
    expect(shrinks.map((s) => [s.from, s.to])).toEqual([[3, 2], [2, 1], [1, 0]]);
    // Paced: each step at least a tick (200 ms here) after the one before.
    for (let i = 1; i < shrinks.length; i++) expect(shrinks[i]!.at - shrinks[i - 1]!.at).toBeGreaterThanOrEqual(190);
  });

  it('an idle worker stopped is counted out by its own row, however slowly it goes', async () => {
    // Workers told to stop do not hear it until the end, so every stopped one is still alive at
    // the next stop (as on a loaded machine, where one can take longer than a tick to exit).
    const held: (() => void)[] = [];
    const launcher: WorkerLauncher = {
      launch(options) {
        const w = nodeLauncher.launch(options);
        return {
          get pid() {
            return w.pid;
          },
          send: (m) => (m.t === 'drain' ? held.push(() => w.send(m)) : w.send(m)),
          onMessage: (listener) => w.onMessage(listener),
          onExit: (listener) => w.onExit(listener),
          kill: () => w.kill(),
        };
      },
    };
    const engine = await t.restart({ launcher });
    await engine.request('setCap', { lane: 'worker', cap: 3 });
    const gate = join(t.dir, 'gate');
    const { ids } = await engine.request('addJobs', { jobs: Array.from({ length: 3 }, () => ({ shell: `while [ ! -f ${gate} ]; do sleep 0.05; done` })) });
    await until(engine, () => lane('worker').busy === 3, 10_000, 'three busy');
    const shrinks: ScaleEvent[] = [];
    engine.events.subscribe((e) => e.type === 'scale' && e.data.reason === 'idle' && shrinks.push(e.data));
    writeFileSync(gate, '');
    await jobsFinished(engine, ids);
    await until(engine, () => shrinks.length === 3, 20_000, 'three idle rows');
    expect(held.length).toBe(3);
    expect(shrinks.map((s) => [s.from, s.to])).toEqual([[3, 2], [2, 1], [1, 0]]);
    for (const send of held) send();
    await until(engine, () => lane('worker').workers === 0, 20_000, 'zero workers');
    expect(shrinks).toHaveLength(3);
  });

  it('lanes share the machine: never more workers than the ceiling, and a second lane gets one', async () => {
    await t.engine.request('addLane', { name: 'batch', cap: 3 });
    await t.engine.request('setCap', { lane: 'worker', cap: 3 });
    let peak = 0;
    t.engine.events.subscribe(() => (peak = Math.max(peak, t.engine.status().workersInUse)));
    const a = await t.engine.request('addJobs', { jobs: Array.from({ length: 12 }, () => ({ argv: ['sleep', '0.2'] })) });
    await until(t.engine, () => lane('worker').busy >= 2, 10_000, 'worker lane busy');
    const b = await t.engine.request('addJobs', { jobs: Array.from({ length: 4 }, () => ({ lane: 'batch', argv: ['sleep', '0.2'] })) });
    await until(t.engine, () => lane('batch').busy >= 1, 10_000, 'batch gets a worker');
    await jobsFinished(t.engine, [...a.ids, ...b.ids]);
    expect(peak).toBeLessThanOrEqual(3);
  });
});

describe('bad input changes nothing', () => {
  it.each([
    ['negative cap', 'setCap', { lane: 'worker', cap: -1 }, /cap: cap cannot be negative/],
    ['fractional cap', 'setCap', { lane: 'worker', cap: 1.5 }, /cap: cap must be a whole number/],
    ['cap above the most any lane may have', 'setCap', { lane: 'worker', cap: 257 }, /cap must be at most 256/],
    ['cap on an unknown lane', 'setCap', { lane: 'nope', cap: 1 }, /no lane named "nope"/],
    ['empty command', 'addJob', { argv: [''] }, /command is empty/],
    ['no command', 'addJob', {}, /exactly one of argv, shell or payload/],
    ['blank shell command', 'addJob', { shell: '   ' }, /command is empty/],
    ['bad lane name', 'addLane', { name: 'Bad Name!' }, /name: a lane name is 1–32 characters/],
    ['duplicate lane', 'addLane', { name: 'worker' }, /already exists/],
    ['payload to a shell lane', 'addJob', { payload: { x: 1 } }, /a payload needs a lane with a worker command/],
    ['removing the default lane', 'removeLane', { name: 'worker' }, /default lane/],
  ] as const)('%s', async (_name, request, input, message) => {
    const before = JSON.stringify(t.engine.status().lanes);
    await expect(t.engine.request(request, input)).rejects.toThrow(message);
    expect(JSON.stringify(t.engine.status().lanes)).toBe(before);
    expect((await t.engine.request('listJobs', {})).total).toBe(0);
  });

  it('a lane holding unfinished jobs cannot be removed; an emptied one can', async () => {
    await t.engine.request('addLane', { name: 'side', cap: 0 });
    const { id } = await t.engine.request('addJob', { lane: 'side', argv: ['true'] });
    await expect(t.engine.request('removeLane', { name: 'side' })).rejects.toThrow(/1 unfinished job/);
    await t.engine.request('cancel', { id });
    expect(await t.engine.request('removeLane', { name: 'side' })).toEqual({ removed: 'side' });
    expect(t.engine.status().lanes.map((l) => l.name)).toEqual(['worker', 'ml']);
  });
});
