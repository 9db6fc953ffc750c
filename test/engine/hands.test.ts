// Jobs in hand: a lane of short jobs with a deep backlog hands each worker a few jobs at once, so
// it goes from one to the next without waiting on the engine. What must hold whatever the hand:
// a cancelled job in a hand never runs; a worker that dies with jobs in hand costs them nothing
// (they run elsewhere, on their first attempt); each job runs once and is recorded once.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { engineEachTest, jobsFinished, nextEvent, until } from '../support/engine.js';
import { killWorkerOf, payloads, quickLane, ran, startedWith } from '../support/quick-lane.js';

// Hands for these jobs however loaded the machine is: what is tested is what a hand may do.
const t = engineEachTest({ cores: 3, handBelowMs: 5_000 });


describe('jobs in hand', () => {
  it('a deep backlog of short jobs runs each job once, recorded once, on its first attempt', async () => {
    await t.engine.request('addLane', { name: 'quick', cap: 2, workerCommand: quickLane(t.dir) });
    const keys = new Set<string>();
    t.engine.events.subscribe((e) => e.type === 'job' && Object.keys(e.data).forEach((k) => keys.add(k)));
    const { ids } = await t.engine.request('addJobs', { jobs: payloads(0, 600) });
    const jobs = await jobsFinished(t.engine, ids);
    expect(jobs.every((j) => j.state === 'succeeded' && j.attempts === 1)).toBe(true);
    expect(ran(t.dir).sort((a, b) => a - b)).toEqual(Array.from({ length: 600 }, (_, i) => i));
    expect(t.engine.status().lanes.find((l) => l.name === 'quick')).toMatchObject({ succeeded: 600, waiting: 0, running: 0 });
    // Events carry summaries, never what a job runs.
    expect([...keys].filter((k) => /spec|timeout/i.test(k))).toEqual([]);
  });

  it('a cancelled job never runs, though its worker held it in hand', async () => {
    await t.engine.request('addLane', { name: 'quick', cap: 1, workerCommand: quickLane(t.dir) });
    // Short jobs first, so the lane is known to be one of short jobs.
    await jobsFinished(t.engine, (await t.engine.request('addJobs', { jobs: payloads(0, 50) })).ids);
    const slow = nextEvent(t.engine, (e) => e.type === 'job' && e.data.state === 'running' && e.data.command.includes('"wait":true'));
    const { ids } = await t.engine.request('addJobs', { jobs: [{ lane: 'quick', payload: { n: 100, wait: true } }, ...payloads(101, 5)] });
    await slow;
    const cancelled = await t.engine.request('cancel', { id: ids[2]! });
    expect(cancelled).toMatchObject({ id: ids[2], state: 'cancelled' });
    writeFileSync(join(t.dir, 'gate'), '');
    const jobs = await jobsFinished(t.engine, ids);
    expect(jobs.map((j) => j.state)).toEqual(['succeeded', 'succeeded', 'cancelled', 'succeeded', 'succeeded', 'succeeded']);
    expect(ran(t.dir)).not.toContain(102);
  });

  it.runIf(process.platform === 'linux')('a worker killed with jobs in hand costs them nothing: they run elsewhere on their first attempt', async () => {
    await t.engine.request('addLane', { name: 'quick', cap: 1, workerCommand: quickLane(t.dir) });
    await jobsFinished(t.engine, (await t.engine.request('addJobs', { jobs: payloads(0, 50) })).ids);
    const { ids } = await t.engine.request('addJobs', { jobs: [{ lane: 'quick', payload: { n: 100, wait: true }, maxAttempts: 2 }, ...payloads(101, 5)] });
    await until(t.engine, () => startedWith(t.dir, 100), 30_000, 'the waiting job started');
    const worker = t.engine.status().lanes.find((l) => l.name === 'quick')!;
    expect(worker.running).toBe(1);
    const lost = nextEvent(t.engine, (e) => e.type === 'scale' && e.data.reason === 'crash');
    killWorkerOf(t.dir);
    await lost;
    writeFileSync(join(t.dir, 'gate'), '');
    const jobs = await jobsFinished(t.engine, ids);
    expect(jobs.every((j) => j.state === 'succeeded')).toBe(true);
    expect(jobs[0]!.attempts).toBe(2);
    expect(jobs.slice(1).map((j) => j.attempts)).toEqual([1, 1, 1, 1, 1]);
    const later = ran(t.dir).filter((n) => n > 100);
    expect(later.sort((a, b) => a - b)).toEqual([101, 102, 103, 104, 105]);
  });
});
