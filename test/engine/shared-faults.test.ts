// A shared lane's Redis going away under load, on a real redis-server: stopped with SIGSTOP (it
// keeps its connections and answers nothing, as a network that drops packets does) or killed.
// What must hold: the lane's workers give the machine back, so a local job runs meanwhile; the
// lane says Redis is not answering; `add` to it fails at once and says nothing was queued; and once
// Redis answers, every job that finished meanwhile is recorded once, none run twice (the jobs
// write their own lines, outside Lanes). The stall is the fault's length; every wait is bounded.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LanesEvent } from '../../shared/events.js';
import type { ScaleEvent } from '../../shared/model.js';
import type { Engine } from '../../electron/engine/index.js';
import { engineEachTest, jobsFinished, startEngine, tempDir, until } from '../support/engine.js';
import { waitFor } from '../support/poll.js';
import { startRedis, type RedisServer } from '../support/redis.js';

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedis({ appendonly: true });
});
afterEach(async () => {
  // Each test starts from an empty Redis that answers.
  process.kill(redis.pid, 'SIGCONT');
  const admin = new Redis({ host: '127.0.0.1', port: redis.port });
  await admin.flushall();
  await admin.quit();
});
afterAll(async () => {
  process.kill(redis.pid, 'SIGCONT');
  await redis.remove();
});

// Ceiling 2: the shared lane's two workers hold the whole machine.
const t = engineEachTest({ cores: 3 });

const lane = (name: string) => t.engine.status().lanes.find((l) => l.name === name);
const runsFile = () => join(t.dir, 'runs.txt');
const lines = (): string[] => {
  try {
    return readFileSync(runsFile(), 'utf8').trim().split('\n').filter(Boolean);
  } catch {
    return [];
  }
};

/** A shared lane at cap 2 with `n` jobs that each write a line as they start and as they end. */
async function busySharedLane(n: number, seconds: number): Promise<number[]> {
  await t.engine.request('addLane', { name: 'render', cap: 2, queue: { redis: redis.url } });
  const script = `echo "$LANES_JOB_ID start" >> ${runsFile()}; sleep ${seconds}; echo "$LANES_JOB_ID end" >> ${runsFile()}`;
  const { ids } = await t.engine.request('addJobs', { jobs: Array.from({ length: n }, () => ({ lane: 'render', shell: script })) });
  await until(t.engine, () => lane('render')?.busy === 2, 30_000, 'both workers running a shared job');
  return ids;
}

function scaleRows(): { rows: ScaleEvent[]; off: () => void } {
  const rows: ScaleEvent[] = [];
  const off = t.engine.events.subscribe((e: LanesEvent) => void (e.type === 'scale' && rows.push(e.data)));
  return { rows, off };
}

describe('a shared lane whose Redis goes away', () => {
  it.each([
    ['stopped (SIGSTOP)', 'stall'],
    ['killed', 'kill'],
  ] as const)('Redis %s under a shared backlog: the local lane gets the machine, the ledger records the outage, nothing runs twice', async (_, how) => {
    const ledger = scaleRows();
    const ids = await busySharedLane(8, 1);
    if (how === 'stall') process.kill(redis.pid, 'SIGSTOP');
    else await redis.stop(true);
    await until(t.engine, () => lane('render')?.shared?.unreachableSince != null, 20_000, 'the lane saying Redis is away');
    expect(lane('render')!.shared!.notAnswering).toBe(how === 'stall');
    // Done when: a local job added now finishes within 5 s, while Redis is still away.
    const local = await t.engine.request('addJob', { shell: 'true' });
    const [ran] = await jobsFinished(t.engine, [local.id], 5_000);
    expect(ran!.state).toBe('succeeded');
    expect(lane('render')!.shared!.unreachableSince).not.toBeNull();
    // A listing of every lane still answers, with the local job; the shared lane's own says why it cannot.
    expect((await t.engine.request('listJobs', { limit: 10 })).jobs.map((j) => j.id)).toContain(local.id);
    await expect(t.engine.request('listJobs', { lane: 'render', limit: 10 })).rejects.toMatchObject({ code: 'queue_unreachable' });
    if (how === 'stall') process.kill(redis.pid, 'SIGCONT');
    else await redis.restart();
    await until(t.engine, () => lane('render')?.shared?.unreachableSince === null, 30_000, 'Redis answering again');
    const jobs = await jobsFinished(t.engine, ids, 120_000);
    ledger.off();
    expect(jobs.map((j) => [j.state, j.attempts])).toEqual(ids.map(() => ['succeeded', 1]));
    const starts = lines().filter((l) => l.endsWith(' start'));
    expect(starts.sort()).toEqual(ids.map((id) => `${id} start`).sort());
    const outage = ledger.rows.filter((r) => r.lane === 'render' && r.reason === 'outage');
    expect(outage.map((r) => r.detail)).toEqual([expect.stringMatching(how === 'stall' ? /has not answered since/ : /unreachable since/), expect.stringMatching(/answers again, after \d+ s away/)]);
  }, 180_000);

  it('the lane says the current fault’s words: a stall after an outage is not shown with the outage’s refused connection', async () => {
    await t.engine.request('addLane', { name: 'render', cap: 1, queue: { redis: redis.url } });
    await redis.stop(true);
    try {
      await waitFor(() => /ECONNREFUSED/.test(lane('render')?.shared?.error ?? ''), 'the outage’s own error', 20_000);
    } finally {
      await redis.restart();
    }
    await until(t.engine, () => lane('render')?.shared?.unreachableSince === null, 30_000, 'Redis answering again');
    process.kill(redis.pid, 'SIGSTOP');
    await until(t.engine, () => lane('render')?.shared?.notAnswering === true, 15_000, 'the lane saying Redis is not answering');
    const shared = lane('render')!.shared!;
    expect(shared.error).toMatch(/no answer to a ping for 3 s/);
    expect(shared.error).not.toMatch(/ECONNREFUSED/);
    await expect(t.engine.request('addJob', { lane: 'render', shell: 'true' })).rejects.toThrow(/has not answered since [^(]*\(no answer to a ping for 3 s\); nothing was queued/);
  }, 90_000);

  // Long tests (up to 5 minutes on a loaded machine): the stall itself, then both engines
  // recording what finished meanwhile. 40 s is the longest the lane is said to ride out.
  it.each([25, 40])('a %i s stall under load on two engines: every job recorded once, none run twice; the lane says so, and an add is refused at once', async (seconds) => {
    // A second engine of the lane, whose stalled-job check would take any job whose lock ran out.
    const other = tempDir();
    const b = await startEngine(other.dir, { cores: 3 });
    try {
      await stallOnTwoEngines(b, seconds * 1000);
    } finally {
      await b.stop({ graceMs: 2000 });
      other.cleanup();
    }
  }, 300_000);
});

async function stallOnTwoEngines(b: Engine, stallMs: number): Promise<void> {
    await b.request('addLane', { name: 'render', cap: 2, queue: { redis: redis.url } });
    const ids = await busySharedLane(16, 2);
    await until(b, () => (b.status().lanes.find((l) => l.name === 'render')?.busy ?? 0) > 0, 30_000, 'the other engine running a shared job');
    process.kill(redis.pid, 'SIGSTOP');
    const stalledAt = Date.now();
    await until(t.engine, () => lane('render')?.shared?.notAnswering === true, 15_000, 'the lane saying Redis is not answering');
    const refused = await t.engine.request('addJob', { lane: 'render', shell: 'echo lost' }).then(
      () => null,
      (error: Error & { code?: string }) => error,
    );
    expect(refused?.code).toBe('queue_unreachable');
    expect(refused?.message).toMatch(/has not answered since .*nothing was queued/);
    // The fault: `stallMs` without an answer. 25 s is longer than BullMQ's own lock (30 s) less its
    // renewal; 40 s longer than the 35 s every lock of Lanes' is sure to have (bull-worker.ts), which
    // these 2 s jobs' locks outlast: taken (or renewed) at most a few seconds before Redis stopped.
    await new Promise((resume) => setTimeout(resume, Math.max(0, stallMs - (Date.now() - stalledAt))));
    process.kill(redis.pid, 'SIGCONT');
    await until(t.engine, () => lane('render')?.shared?.unreachableSince === null, 30_000, 'Redis answering again');
    // Jobs the other engine finishes are announced there: read here until all have.
    const read = () => Promise.all(ids.map((id) => t.engine.request('job', { id })));
    await expect.poll(async () => (await read()).filter((j) => j.state === 'queued' || j.state === 'running').length, { timeout: 150_000, interval: 500 }).toBe(0);
    const jobs = await read();
    expect(jobs.map((j) => [j.state, j.attempts, j.history.length])).toEqual(ids.map(() => ['succeeded', 1, 0]));
    const starts = lines().filter((l) => l.endsWith(' start'));
    expect(starts.sort()).toEqual(ids.map((id) => `${id} start`).sort());
}
