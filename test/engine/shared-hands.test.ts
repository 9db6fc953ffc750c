// Jobs in hand on a shared lane: a worker is handed the next shared job while it runs one, so it
// goes from job to job while the engine talks to Redis. A shared job in a hand is taken from
// BullMQ (locked to this engine), so what must hold: each job runs once, on its first attempt; a
// cancelled job in a hand never runs; a worker that dies with a job in hand gives it back at once,
// and it runs elsewhere on its first attempt.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { engineEachTest, jobsFinished, nextEvent, until } from '../support/engine.js';
import { killWorkerOf, payloads, quickLane, ran, startedWith } from '../support/quick-lane.js';
import { startRedis, type RedisServer } from '../support/redis.js';

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedis();
});
afterEach(async () => {
  const admin = new Redis({ host: '127.0.0.1', port: redis.port });
  await admin.flushall();
  await admin.quit();
});
afterAll(async () => {
  await redis.remove();
});

// Hands for these jobs however loaded the machine is: what is tested is what a hand may do.
const t = engineEachTest({ cores: 3, handBelowMs: 5_000 });


async function sharedLane(cap: number): Promise<void> {
  await t.engine.request('addLane', { name: 'quick', cap, workerCommand: quickLane(t.dir), queue: { redis: redis.url } });
  // Short jobs first, so the lane is known to be one of short jobs (hands are only for those).
  await jobsFinished(t.engine, (await t.engine.request('addJobs', { jobs: payloads(0, 50) })).ids);
}

/** The slow job started, with the next one in its worker's hand (taken from Redis for it). */
async function slowJobWithOneInHand(): Promise<number[]> {
  // Queued while the lane may run nothing, and started once this engine has read the shared
  // counts: a hand is sized by the backlog it knows of, read from Redis once a second.
  await t.engine.request('setCap', { lane: 'quick', cap: 0 });
  const { ids } = await t.engine.request('addJobs', { jobs: [{ lane: 'quick', payload: { n: 100, wait: true }, maxAttempts: 2 }, ...payloads(101, 4)] });
  const lane = () => t.engine.status().lanes.find((l) => l.name === 'quick')!;
  await until(t.engine, () => lane().waiting === 5 && lane().workers === 0, 30_000, 'the shared backlog seen');
  await t.engine.request('setCap', { lane: 'quick', cap: 1 });
  await until(t.engine, () => startedWith(t.dir, 100), 30_000, 'the waiting job started');
  // One worker, blocked on the slow job: the next is active in BullMQ only because it is in that worker's hand.
  const state = async (id: number) => (await t.engine.request('job', { id })).state;
  await expect.poll(() => state(ids[1]!), { timeout: 30_000 }).toBe('running');
  expect(await state(ids[2]!)).toBe('queued');
  return ids;
}

describe('jobs in hand on a shared lane', () => {
  it('a deep backlog of short jobs runs each job once, on its first attempt', async () => {
    await sharedLane(2);
    const { ids } = await t.engine.request('addJobs', { jobs: payloads(100, 400) });
    const jobs = await jobsFinished(t.engine, ids);
    const odd = jobs.filter((j) => j.state !== 'succeeded' || j.attempts !== 1);
    const stories = await Promise.all(odd.slice(0, 3).map((j) => t.engine.request('job', { id: j.id })));
    expect(odd, JSON.stringify(stories.map((j) => ({ id: j.id, state: j.state, attempts: j.attempts, error: j.error, history: j.history })))).toEqual([]);
    expect(ran(t.dir).sort((a, b) => a - b)).toEqual([...Array.from({ length: 50 }, (_, i) => i), ...Array.from({ length: 400 }, (_, i) => 100 + i)]);
  });

  it('a cancelled job in a hand never runs', async () => {
    await sharedLane(1);
    const ids = await slowJobWithOneInHand();
    const dropped = nextEvent(t.engine, (e) => e.type === 'job' && e.data.id === ids[1] && e.data.state === 'cancelled');
    await t.engine.request('cancel', { id: ids[1]! });
    await dropped;
    writeFileSync(join(t.dir, 'gate'), '');
    const jobs = await jobsFinished(t.engine, ids);
    expect(jobs.map((j) => j.state)).toEqual(['succeeded', 'cancelled', 'succeeded', 'succeeded', 'succeeded']);
    expect(ran(t.dir)).not.toContain(101);
  });

  it.runIf(process.platform === 'linux')('a worker killed with a job in hand gives it back: it runs elsewhere on its first attempt', async () => {
    await sharedLane(1);
    const ids = await slowJobWithOneInHand();
    const lost = nextEvent(t.engine, (e) => e.type === 'scale' && e.data.reason === 'crash');
    killWorkerOf(t.dir);
    await lost;
    writeFileSync(join(t.dir, 'gate'), '');
    const jobs = await jobsFinished(t.engine, ids);
    expect(jobs.every((j) => j.state === 'succeeded')).toBe(true);
    expect(jobs[0]!.attempts).toBe(2);
    expect(jobs.slice(1).map((j) => j.attempts)).toEqual([1, 1, 1, 1]);
    expect(ran(t.dir).filter((n) => n > 100).sort((a, b) => a - b)).toEqual([101, 102, 103, 104]);
  });
});
