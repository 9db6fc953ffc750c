// Restarting many finished jobs is a set looked at first, written a chunk at a time, and one
// announcement for the whole set, as adding them is: new jobs (linked to the ones they restart,
// in the order asked) or the same ids queued again, a `jobs` event for many instead of one event
// per job, and a refusal that changes nothing. Real engine;
// the jobs are cancelled while scheduled for later, so they are finished without running.
import { describe, expect, it } from 'vitest';
import type { LanesEvent } from '../../shared/events.js';
import { JOB_EVENTS_PER_REQUEST } from '../../shared/limits.js';
import { engineEachTest } from '../support/engine.js';

const t = engineEachTest();
const MANY = JOB_EVENTS_PER_REQUEST + 200;

/** `n` finished (cancelled) jobs, with the engine paused so that nothing restarted runs. */
async function finished(n: number): Promise<number[]> {
  await t.engine.request('pause', {});
  const { ids } = await t.engine.request('addJobs', { jobs: Array.from({ length: n }, (_, i) => ({ argv: ['echo', String(i)], delaySeconds: 3600, priority: i % 3, labels: ['batch'] })) });
  await t.engine.request('cancelJobs', { state: 'queued' });
  return ids;
}

function heard(): { events: LanesEvent[]; off: () => void } {
  const events: LanesEvent[] = [];
  const off = t.engine.events.subscribe((e) => {
    if (e.type === 'job' || e.type === 'jobs') events.push(e);
  });
  return { events, off };
}

describe('restarting many jobs', () => {
  it(`${MANY} as new jobs: one 'jobs' event, each new job linked to the one it restarts, its priority and labels kept`, async () => {
    const ids = await finished(MANY);
    const { events, off } = heard();
    const { ids: again } = await t.engine.request('restartJobs', { ids });
    off();
    expect(again).toHaveLength(MANY);
    expect(new Set(again).size).toBe(MANY);
    expect(events).toEqual([expect.objectContaining({ type: 'jobs', data: { ids: again, change: 'added' } })]);
    const third = await t.engine.request('job', { id: again[2]! });
    expect(third).toMatchObject({ state: 'queued', restartOf: ids[2], priority: 2, labels: ['batch'] });
    expect((await t.engine.request('job', { id: ids[1]! })).restartedAs).toEqual([again[1]]);
    expect((await t.engine.request('listJobs', { state: 'queued', limit: 1 })).total).toBe(MANY);
  });

  it(`${MANY} in place: the same ids queued again, one 'jobs' event`, async () => {
    const ids = await finished(MANY);
    const { events, off } = heard();
    const { ids: again } = await t.engine.request('restartJobs', { ids, inPlace: true });
    off();
    expect(again).toEqual(ids);
    expect(events).toEqual([expect.objectContaining({ type: 'jobs', data: { ids, change: 'changed' } })]);
    expect((await t.engine.request('listJobs', { state: 'queued', limit: 1 })).total).toBe(MANY);
  });

  it('an id asked twice, the second time past the first thousand: two new jobs for it, or queued again once in place', async () => {
    const ids = await finished(MANY);
    const twice = [...ids, ids[0]!];
    const { ids: fresh } = await t.engine.request('restartJobs', { ids: twice });
    expect(fresh).toHaveLength(MANY + 1);
    for (const at of [0, MANY - 1, MANY]) expect((await t.engine.request('job', { id: fresh[at]! })).restartOf).toBe(twice[at]);
    await t.engine.request('cancelJobs', { state: 'queued' });
    const { ids: again } = await t.engine.request('restartJobs', { ids: twice, inPlace: true });
    expect(again).toEqual(twice);
    expect((await t.engine.request('listJobs', { state: 'queued', limit: 1 })).total).toBe(MANY);
  });

  it('a job that changed after all were looked at: the restart stops at its chunk, saying how many went before it, and announces those', async () => {
    const ids = await finished(2_000);
    const late = ids[1_500]!;
    const queued = async () => (await t.engine.request('listJobs', { state: 'queued', limit: 1 })).total;
    // Looked at each turn of the event loop: once the first chunk is written (and before the next is), the job is retried by another request.
    let retried: Promise<unknown> | undefined;
    const watch = async () => {
      if ((await queued()) >= 1_000) retried = t.engine.request('retry', { id: late });
      else setImmediate(() => void watch());
    };
    setImmediate(() => void watch());
    const { events, off } = heard();
    await expect(t.engine.request('restartJobs', { ids, inPlace: true })).rejects.toThrow(`job ${late} is queued; only a finished job can be restarted; of the 2,000, the first 1,000 were restarted and the rest were not`);
    await retried;
    off();
    expect(await queued()).toBe(1_001);
    const announced = events.flatMap((e) => (e.type === 'job' ? [e.data.id] : []));
    expect(new Set(announced)).toEqual(new Set([...ids.slice(0, 1_000), late]));
  });

  it('a few: a job event each, as for added jobs', async () => {
    const ids = await finished(3);
    const { events, off } = heard();
    await t.engine.request('restartJobs', { ids, inPlace: true });
    off();
    expect(events.map((e) => [e.type, e.type === 'job' ? e.data.state : null])).toEqual([
      ['job', 'queued'],
      ['job', 'queued'],
      ['job', 'queued'],
    ]);
  });

  it('one of them still queued: refused, naming it, and none restarted', async () => {
    const ids = await finished(50);
    const { id: waiting } = await t.engine.request('addJob', { argv: ['true'], delaySeconds: 3600 });
    for (const inPlace of [false, true]) {
      await expect(t.engine.request('restartJobs', { ids: [...ids, waiting], inPlace })).rejects.toThrow(new RegExp(`job ${waiting} is queued; .*nothing was restarted`));
    }
    expect((await t.engine.request('listJobs', { state: 'queued', limit: 1 })).total).toBe(1);
    expect((await t.engine.request('listJobs', { state: 'cancelled', limit: 1 })).total).toBe(50);
  });
});
