// A shared lane's queue as the BullMQ world meets it, on a real redis-server: the producer of
// docs/examples/bullmq-producer.mjs (run as its own Node process, as written) queues jobs with and
// without its own id, priority, delay and attempts and reads each outcome through QueueEvents, and
// so does its Python twin, bullmq_producer.py, where BullMQ's Python port can be imported;
// and a plain BullMQ Worker on the lane's queue is seen, not trusted.
import { execFile, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Queue, Worker } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { statusText } from '../../electron/cli/commands/lanes.js';
import { ROOT } from '../support/daemon.js';
import { engineEachTest, jobsFinished } from '../support/engine.js';
import { lines, waitFor } from '../support/poll.js';
import { redisForFile } from '../support/redis-each.js';
import { findOnPath } from '../support/redis.js';

const db = redisForFile();

const t = engineEachTest({ cores: 3 });
const shared = () => t.engine.status().lanes.find((l) => l.name === 'render')!.shared!;

/** The Python that can import BullMQ's Python port (`bullmq`), if there is one. */
const PYTHON = findOnPath('python3');
const pythonBullmq = PYTHON !== null && spawnSync(PYTHON, ['-c', 'import bullmq'], { stdio: 'ignore' }).status === 0;

/**
 * Runs a producer of docs/examples (its own process, as written) against the lane, and checks
 * what it said and what ran: both examples queue the same five jobs and print the same lines.
 */
async function producerRuns(program: string[]): Promise<void> {
  await t.engine.request('addLane', { name: 'render', cap: 2, queue: { redis: db.redis.url } });
  const out = join(t.dir, 'out.txt');
  const { stdout } = await promisify(execFile)(program[0]!, [...program.slice(1), out], {
    env: { ...process.env, REDIS_URL: db.redis.url, LANE: 'render' },
    timeout: 40_000,
  }).catch(async (error: Error & { stdout?: string; stderr?: string }) => {
    const jobs = await t.engine.request('listJobs', { lane: 'render', limit: 10 });
    throw new Error(`${error.message}: it said ${error.stdout} ${error.stderr}; the lane holds ${JSON.stringify(jobs.jobs)}`);
  });
  const said = stdout.trim().split('\n');
  expect(said).toHaveLength(5);
  expect(said[0]).toMatch(/^\d+: exit 0, Lanes job \d{16} on \S+$/);
  expect(said[1]).toMatch(/^nightly-2026-12-02: exit 0, Lanes job \d{16} on \S+$/);
  expect(said[2]).toBe(said[1]);
  expect(said[3]).toMatch(/^\d+: exit 0, Lanes job/);
  expect(said[4]).toMatch(/^\d+: failed: .*exit(ed)? (with )?(code )?3/);
  // Each ran as often as it should: the named one once, the flaky one twice (its two attempts).
  expect(lines(out).sort()).toEqual(['flaky', 'flaky', 'later', 'nightly', 'plain']);
  // Lanes shows the named job under a Lanes id of its own, with BullMQ's id beside it.
  const namedId = Number(/Lanes job (\d+)/.exec(said[1]!)![1]);
  const named = await t.engine.request('job', { id: namedId });
  expect(named).toMatchObject({ state: 'succeeded', bullmqId: 'nightly-2026-12-02', attempts: 1, maxAttempts: 3, timeoutMs: 60_000 });
  const listed = await t.engine.request('listJobs', { lane: 'render', limit: 10 });
  expect(listed.jobs.map((j) => j.bullmqId ?? null).filter(Boolean)).toEqual(['nightly-2026-12-02']);
  expect(listed.jobs).toHaveLength(4);
  // The flaky one's attempts read as words in BullMQ's tools (its stacktrace), and as records in Lanes.
  const flakyBullId = said[4]!.split(':')[0]!;
  const stack = JSON.parse((await db.admin.hget(`lanes:render:${flakyBullId}`, 'stacktrace'))!) as string[];
  expect(stack.map((entry) => entry.split('\n')[0])).toEqual(['attempt 1 failed: exited with code 3', 'attempt 2 failed: exited with code 3']);
  const flaky = listed.jobs.find((j) => j.command === 'flaky')!;
  expect((await t.engine.request('job', { id: flaky.id })).history.map((a) => [a.attempt, a.outcome, a.exitCode])).toEqual([
    [1, 'failed', 3],
    [2, 'failed', 3],
  ]);
}

describe('a BullMQ producer', () => {
  it('written as the docs show, queues with and without jobId, priority, delay and attempts, and reads each result; a duplicate jobId runs once', async () => {
    await producerRuns([process.execPath, join(ROOT, 'docs', 'examples', 'bullmq-producer.mjs')]);
  }, 120_000);

  it('in Python, as the docs show, queues the same jobs and reads the same results', async (ctx) => {
    if (!pythonBullmq) return ctx.skip('BullMQ\'s Python port is not importable here (pip install bullmq)');
    await producerRuns([PYTHON!, join(ROOT, 'docs', 'examples', 'bullmq_producer.py')]);
  }, 120_000);

  it('refuses data not in the shape, naming the field; leaving out optional fields is fine', async () => {
    await t.engine.request('addLane', { name: 'render', cap: 1, queue: { redis: db.redis.url } });
    const queue = new Queue('render', { connection: db.admin, prefix: 'lanes' });
    const added = await queue.addBulk([
      { name: 'readme', data: { foo: 'bar' } },
      { name: 'bad timeout', data: { spec: { kind: 'shell', script: 'true' }, timeoutMs: -5 } },
      { name: 'minimal', data: { spec: { kind: 'argv', argv: ['true'] } } },
    ]);
    await queue.close();
    const ids = await Promise.all(added.map(async (j) => (await t.engine.request('listJobs', { lane: 'render', limit: 10 })).jobs.find((s) => s.command === j.name)!.id));
    const jobs = await jobsFinished(t.engine, ids, 60_000);
    expect(jobs.map((j) => j.state)).toEqual(['failed', 'failed', 'succeeded']);
    expect(jobs[0]!.error).toMatch(/data\.spec is required/);
    expect(jobs[0]!.error).toMatch(/unknown field "foo"/);
    expect(jobs[1]!.error).toMatch(/data\.timeoutMs must be/);
  }, 90_000);
});

describe('a plain BullMQ Worker on a shared lane', () => {
  it('nothing it took is reported succeeded; status warns of it; a retried one runs in Lanes', async () => {
    await t.engine.request('addLane', { name: 'render', cap: 0, queue: { redis: db.redis.url } });
    const ran = join(t.dir, 'ran.txt');
    const { ids } = await t.engine.request('addJobs', { jobs: Array.from({ length: 6 }, (_, i) => ({ lane: 'render', shell: `echo ${i} >> ${ran}` })) });
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let took = 0;
    // The first job it takes it holds until the lane warns that something not Lanes took it.
    const worker = new Worker('render', async () => (took++ === 0 ? held.then(() => 'done') : 'done'), { connection: db.admin.duplicate(), prefix: 'lanes' });
    try {
      await waitFor(() => shared().outsideWorker?.how === 'took', 'the lane warning of a worker not Lanes taking a job', 15_000);
      expect(shared().outsideWorker!.jobId).toBeTypeOf('number');
      // `lanes status` says so under the lane.
      expect(statusText(t.engine.status(), Date.now(), 200)).toMatch(/render: shared on .*\n {2}warning: a worker that is not Lanes took job \d+ at [\d:]+: what it completes is shown failed \("finished outside Lanes"\), never succeeded/);
      release();
      await waitFor(async () => (await db.admin.zcard('lanes:render:completed')) === 6, 'the plain worker completing all six');
    } finally {
      await worker.close();
    }
    const jobs = await jobsFinished(t.engine, ids, 30_000);
    expect(jobs.map((j) => j.state)).toEqual(ids.map(() => 'failed'));
    for (const j of jobs) expect(j.error).toMatch(/^finished outside Lanes/);
    expect(lines(ran)).toEqual([]);
    const lane = () => t.engine.status().lanes.find((l) => l.name === 'render')!;
    await waitFor(() => lane().succeeded === 0 && lane().failed === 6, 'the lane counting six failed, none succeeded');
    // Retried, a Lanes engine runs it.
    await t.engine.request('retry', { id: ids[0]! });
    await t.engine.request('setCap', { lane: 'render', cap: 1 });
    const [again] = await jobsFinished(t.engine, [ids[0]!], 30_000);
    expect(again).toMatchObject({ state: 'succeeded', exitCode: 0 });
    expect(lines(ran)).toEqual(['0']);
  }, 90_000);
});
