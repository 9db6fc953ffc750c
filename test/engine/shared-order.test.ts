// Order and time on a shared lane: delay and priority go through BullMQ's own, and what a shared
// queue cannot keep (running after other jobs, labels) is refused in words that say what works.
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { engineEachTest, jobsFinished } from '../support/engine.js';
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
});
