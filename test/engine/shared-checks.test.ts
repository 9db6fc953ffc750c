// Jobs written straight into a shared lane's Redis, as anyone who can write to it could: each is
// checked like a request to the API before anything runs. One that fails the check fails at once,
// once, with words that say why: not run, not stalled and taken again, not retried.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { bullIdOf, sharedId, slotOf } from '../../electron/engine/store/job-ids.js';
import { engineEachTest, jobsFinished } from '../support/engine.js';
import { redisForFile } from '../support/redis-each.js';

const db = redisForFile();

const t = engineEachTest({ cores: 3 });

/** Jobs queued on lane `render` as BullMQ holds them, bypassing Lanes; their Lanes ids. */
async function written(data: object[]): Promise<number[]> {
  const q = new Queue('render', { connection: db.admin, prefix: 'lanes' });
  const jobs = await q.addBulk(data.map((d) => ({ name: 'x', data: d, opts: { attempts: 3 } })));
  await q.close();
  return jobs.map((j) => sharedId(slotOf('render'), j.id!)!);
}

describe('jobs from Redis are checked like requests', () => {
  it('non-JSON data or options, a relative cwd, a command beyond the limits: each fails once with its reason, attempts 1', async () => {
    await t.engine.request('addLane', { name: 'render', cap: 0, queue: { redis: db.redis.url } });
    const marker = (n: number) => join(t.dir, `ran-${n}`);
    const command = (n: number, extra: object = {}) => ({ lanes: 1, spec: { kind: 'shell', script: `touch ${marker(n)}`, ...extra }, timeoutMs: null });
    const ids = await written([command(0), command(1, { cwd: '../..' }), command(2, { env: { 'A=B': 'x' } }), command(3), command(4)]);
    // The first as Lanes writes it, to show the lane runs what passes; the last two with data, and options, that are not JSON.
    await db.admin.hset(`lanes:render:${bullIdOf(ids[3]!)}`, 'data', '{"lanes":1, not json');
    await db.admin.hset(`lanes:render:${bullIdOf(ids[4]!)}`, 'opts', '{"attempts":3, not json');
    await t.engine.request('setCap', { lane: 'render', cap: 1 });
    const jobs = await jobsFinished(t.engine, ids, 60_000);
    expect(jobs.map((j) => [j.state, j.attempts])).toEqual([
      ['succeeded', 1],
      ['failed', 1],
      ['failed', 1],
      ['failed', 1],
      ['failed', 1],
    ]);
    expect(jobs[1]!.error).toMatch(/cwd: cwd must be an absolute directory/);
    expect(jobs[2]!.error).toMatch(/environment variable name/);
    expect(jobs[3]!.error).toMatch(/its record in Redis is not JSON/);
    expect(jobs[4]!.error).toMatch(/its record in Redis is not JSON/);
    expect([0, 1, 2, 3, 4].map((n) => existsSync(marker(n)))).toEqual([true, false, false, false, false]);
    // Failed for good in BullMQ too: started once, in the failed set, not waiting to be retried or stalled.
    for (const id of ids.slice(1)) {
      expect(await db.admin.hget(`lanes:render:${bullIdOf(id)}`, 'ats')).toBe('1');
      expect(await db.admin.zscore('lanes:render:failed', bullIdOf(id))).not.toBeNull();
    }
    expect(await db.admin.llen('lanes:render:active')).toBe(0);
  }, 90_000);

  it('a job whose options and progress are not JSON, taken first: failed once, and the lane goes on', async () => {
    await t.engine.request('addLane', { name: 'render', cap: 0, queue: { redis: db.redis.url } });
    const ids = await written([{ lanes: 1, spec: { kind: 'shell', script: 'true' }, timeoutMs: null }, { lanes: 1, spec: { kind: 'shell', script: 'true' }, timeoutMs: null }]);
    await db.admin.hset(`lanes:render:${bullIdOf(ids[0]!)}`, 'opts', 'not json', 'progress', '{');
    await t.engine.request('setCap', { lane: 'render', cap: 1 });
    const jobs = await jobsFinished(t.engine, ids, 60_000);
    expect(jobs.map((j) => [j.state, j.attempts])).toEqual([
      ['failed', 1],
      ['succeeded', 1],
    ]);
    expect(jobs[0]!.error).toMatch(/its record in Redis is not JSON/);
    expect(await db.admin.llen('lanes:render:active')).toBe(0);
  }, 90_000);
});
