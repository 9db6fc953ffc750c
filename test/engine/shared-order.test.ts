// Order and time on a shared lane: delay and priority go through BullMQ's own, and what a shared
// queue cannot keep (running after other jobs, labels) is refused in words that say what works.
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { engineEachTest, jobsFinished } from '../support/engine.js';
import { lines, waitFor } from '../support/poll.js';
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

const t = engineEachTest({ cores: 3 });

describe('a shared lane', () => {
  it('holds a delayed job back through BullMQ, keeps priority, and refuses --after and labels', async () => {
    await t.engine.request('addLane', { name: 'team', cap: 1, queue: { redis: redis.url } });
    const local = await t.engine.request('addJob', { argv: ['true'] });
    await expect(t.engine.request('addJob', { lane: 'team', argv: ['true'], after: [local.id] })).rejects.toThrow(/shared with other engines, and a job there cannot run after other jobs.*delay, time and priority work/);
    await expect(t.engine.request('addJob', { lane: 'team', argv: ['true'], labels: ['nightly'] })).rejects.toThrow(/cannot carry labels/);
    const added = Date.now();
    const { id } = await t.engine.request('addJob', { lane: 'team', argv: ['true'], delaySeconds: 2, priority: 9 });
    const [job] = await jobsFinished(t.engine, [id]);
    expect(job!.state).toBe('succeeded');
    expect(job!.startedAt!).toBeGreaterThanOrEqual(added + 2000);
    // Restarted from this engine: a new shared job with the same command.
    const again = await t.engine.request('restartJobs', { ids: [id] });
    expect((await jobsFinished(t.engine, again.ids))[0]).toMatchObject({ state: 'succeeded', command: 'true' });
    await expect(t.engine.request('editJob', { id, priority: 1 })).rejects.toThrow(/shared with other engines, where a queued job cannot be edited yet/);
  });

  it('orders priorities the same whichever client added them: positive first, then none (0) in order, then BullMQ’s 1, 2, … as −1, −2, …', async () => {
    await t.engine.request('addLane', { name: 'team', cap: 0, queue: { redis: redis.url } });
    const ran = join(t.dir, 'ran.txt');
    const step = (name: string) => ['sh', '-c', `echo ${name} >> ${ran}`];
    const lanes = async (name: string, priority?: number) => (await t.engine.request('addJob', { lane: 'team', argv: step(name), ...(priority !== undefined ? { priority } : {}) })).id;
    const admin = new Redis({ host: '127.0.0.1', port: redis.port, maxRetriesPerRequest: null });
    const queue = new Queue('team', { connection: admin, prefix: 'lanes' });
    const bull = async (name: string, priority?: number) => {
      await queue.add(name, { spec: { kind: 'argv', argv: step(name) } }, priority !== undefined ? { priority } : {});
    };
    const ids = [await lanes('low', -5), await lanes('plain'), await bull('bull-plain'), await lanes('zero', 0), await bull('bull-3', 3), await lanes('high', 7)];
    await t.engine.request('setCap', { lane: 'team', cap: 1 });
    await jobsFinished(t.engine, ids.filter((id): id is number => typeof id === 'number'));
    await waitFor(() => lines(ran).length === 6, 'six jobs run');
    expect(lines(ran)).toEqual(['high', 'plain', 'bull-plain', 'zero', 'bull-3', 'low']);
    await queue.close();
    await admin.quit();
  });
});
