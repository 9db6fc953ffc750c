// A shared lane's finished job outlives BullMQ's record of it on the engine that saw it finish:
// BullMQ drops completed jobs past 2,000 newer ones, and `lanes wait` from the engine that queued
// it must still say how it ended instead of exiting 1 for "no such job". Against a real
// redis-server and a real `lanes daemon`; the job's BullMQ record is removed through BullMQ itself.
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDaemon, type TestDaemon } from '../support/daemon.js';
import { startRedis, type RedisServer } from '../support/redis.js';
import { recordEvents } from '../support/events.js';

describe('a shared job BullMQ has dropped', () => {
  let redis: RedisServer;
  let daemon: TestDaemon;
  beforeAll(async () => {
    redis = await startRedis();
    daemon = await startDaemon({ env: { LANES_CORES: '3' } });
  });
  afterAll(async () => {
    await daemon?.stop();
    await redis?.remove();
  });

  it('is still answered by how it ended: wait exits 0, show says it in words', async () => {
    expect((await daemon.cli('lane', 'add', 'render', '--redis', redis.url, '--cap', '1')).code).toBe(0);
    const events = await recordEvents(daemon.client);
    const id = Number((await daemon.cli('add', '--lane', 'render', '--', 'echo', 'rendered')).stdout);
    expect((await daemon.cli('wait', String(id))).code).toBe(0);
    await events.next((e) => e.type === 'job' && e.data.id === id && e.data.state === 'succeeded');
    events.close();
    // What the engine saw is written down within half a second; BullMQ then drops the job.
    const queue = new Queue('render', { connection: { host: '127.0.0.1', port: redis.port }, prefix: 'lanes' });
    const bullId = String(id % 1e12);
    await expect.poll(async () => (await daemon.api('cleanedJob', { id }).catch(() => null))?.state, { timeout: 10_000 }).toBe('succeeded');
    await (await queue.getJob(bullId))!.remove();
    await queue.close();
    const wait = await daemon.cli('wait', String(id));
    expect(wait.code).toBe(0);
    expect(wait.stdout).toBe(`job ${id}: succeeded\n`);
    const show = await daemon.cli('show', String(id));
    expect(show.code).toBe(1);
    expect(show.stderr).toContain(`job ${id} in lane render succeeded at`);
    expect(show.stderr).toContain('its record has since been dropped by its shared queue');
  });

  it('keeps its number: a Redis emptied meanwhile counts on above the ids this engine knew, never onto them', async () => {
    const id = Number((await daemon.cli('add', '--lane', 'render', '--', 'echo', 'first')).stdout);
    expect((await daemon.cli('wait', String(id))).code).toBe(0);
    await expect.poll(async () => (await daemon.api('cleanedJob', { id }).catch(() => null))?.state, { timeout: 10_000 }).toBe('succeeded');
    const dataDir = daemon.dataDir;
    expect(await daemon.stop()).toBe(0);
    // Redis loses everything (a new server, a flush): BullMQ would number the lane's jobs from 1 again.
    const client = new Redis({ host: '127.0.0.1', port: redis.port });
    await client.flushall();
    await client.quit();
    daemon = await startDaemon({ dataDir, env: { LANES_CORES: '3' } });
    const next = Number((await daemon.cli('add', '--lane', 'render', '--', 'sh', '-c', 'exit 5')).stdout);
    expect(next).toBeGreaterThan(id);
    expect((await daemon.cli('wait', String(next))).code).toBe(1);
    // Each number still answers for its own job.
    expect((await daemon.cli('wait', String(id))).stdout).toBe(`job ${id}: succeeded\n`);
  });
});
