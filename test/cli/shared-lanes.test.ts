// Shared lanes end to end: two real `lanes daemon`s (engine-a and engine-b, ceiling 2 each) join
// one lane on a real redis-server and work one backlog. Every wait is for something to happen
// (a line, an event, a file's content, a process exiting); nothing sleeps for a fixed time.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startDaemon, tempDataDir, type TestDaemon } from '../support/daemon.js';
import { recordEvents } from '../support/events.js';
import { startRedis, type RedisServer } from '../support/redis.js';

let redis: RedisServer;
const daemons: TestDaemon[] = [];
const scratch = tempDataDir('lanes-shared-out-');

beforeAll(async () => {
  redis = await startRedis({ appendonly: true });
});
afterEach(async () => {
  process.kill(redis.pid, 'SIGCONT');
  await Promise.all(daemons.splice(0).map((d) => d.stop()));
  // Each test starts from an empty Redis, running (one test stops it).
  await redis.stop();
  await redis.restart();
  const admin = new Redis({ host: '127.0.0.1', port: redis.port });
  await admin.flushall();
  await admin.quit();
});
afterAll(async () => {
  await redis.remove();
  scratch.remove();
});

async function engine(machine: string): Promise<TestDaemon> {
  const d = await startDaemon({ env: { LANES_MACHINE: machine, LANES_CORES: '2' } });
  daemons.push(d);
  return d;
}

/** Both engines join lane `name`; the URL is printed back without a password. */
async function share(name: string, ...engines: TestDaemon[]): Promise<void> {
  for (const e of engines) {
    const added = await e.cli('lane', 'add', name, '--redis', redis.url, '--cap', '2');
    expect(added.stderr).toBe('');
    expect(added.stdout).toContain(`shared on redis://127.0.0.1:${redis.port}/0`);
  }
}

/** Queues one job per line on `e` with `lanes add --from`; returns the ids it printed. */
async function addFrom(e: TestDaemon, lane: string, lines: string[]): Promise<number[]> {
  const file = join(scratch.dir, `${lane}-${Date.now()}.txt`);
  writeFileSync(file, lines.join('\n') + '\n');
  const added = await e.cli('add', '--lane', lane, '--from', file);
  expect(added.stderr).toBe('');
  return added.stdout.trim().split(/\s+/).map(Number);
}

const linesOf = (file: string): string[] => {
  try {
    return readFileSync(file, 'utf8').trim().split('\n').filter(Boolean);
  } catch {
    return [];
  }
};

describe('shared lanes', () => {
  it('two engines share a lane: each job runs once, on both, and B waits for the ids A printed', async () => {
    const [a, b] = await Promise.all([engine('engine-a'), engine('engine-b')]);
    await share('render', a, b);
    const ran = join(scratch.dir, 'ran.txt');
    const ids = await addFrom(a, 'render', Array.from({ length: 12 }, () => `echo "$LANES_JOB_ID $LANES_MACHINE" >> ${ran}; sleep 0.4`));
    expect(ids).toHaveLength(12);
    expect(new Set(ids).size).toBe(12);
    const waited = await b.cli('wait', ...ids.map(String));
    expect(waited.code).toBe(0);
    const runs = linesOf(ran).map((l) => l.split(' '));
    expect(runs.map(([id]) => Number(id)).sort()).toEqual([...ids].sort());
    expect(new Set(runs.map(([, machine]) => machine))).toEqual(new Set(['engine-a', 'engine-b']));
    // Which machine ran each is on its row, from either engine.
    const listed = await b.api('listJobs', { lane: 'render', limit: 50 });
    expect(listed.jobs.filter((j) => j.state === 'succeeded')).toHaveLength(12);
    for (const j of listed.jobs) expect(['engine-a', 'engine-b']).toContain(j.machine);
    // A log is read from the engine that did not run the job.
    const notB = runs.find(([, machine]) => machine === 'engine-a')!;
    const logged = await b.cli('log', notB[0]!);
    expect(logged.code).toBe(0);
  }, 90_000);

  it('an engine killed mid-job: the other finishes its jobs once BullMQ finds them stalled', async () => {
    const [a, b] = await Promise.all([engine('engine-a'), engine('engine-b')]);
    await share('render', a, b);
    // B takes nothing until A holds jobs: its cap is 0 meanwhile.
    await b.cli('cap', 'render', '0');
    const started = join(scratch.dir, 'started.txt');
    const ids = await addFrom(a, 'render', Array.from({ length: 4 }, () => `echo "$LANES_MACHINE" >> ${started}; sleep 4`));
    const events = await recordEvents(a.client);
    await events.next((e) => e.type === 'lane' && e.data.name === 'render' && e.data.busy === 2);
    events.close();
    a.process.child.kill('SIGKILL');
    await a.process.done;
    // Bounded by the test's own time: BullMQ's stall check takes what it takes on a busy machine.
    await b.cli('cap', 'render', '2');
    const waited = await b.cli('wait', ...ids.map(String));
    expect(waited.code, waited.stderr).toBe(0);
    const finished = await b.api('listJobs', { lane: 'render', limit: 10 });
    expect(finished.jobs.every((j) => j.state === 'succeeded' && j.machine === 'engine-b')).toBe(true);
  }, 150_000);

  it('Redis stopped and restarted: the lane says so, takes nothing new, local lanes carry on, nothing acknowledged is lost', async () => {
    const [a, b] = await Promise.all([engine('engine-a'), engine('engine-b')]);
    await share('render', a, b);
    await Promise.all([a.cli('cap', 'render', '0'), b.cli('cap', 'render', '0')]);
    const ids = await addFrom(a, 'render', Array.from({ length: 8 }, (_, i) => `echo ${i}`));
    const events = await recordEvents(a.client);
    await redis.stop(true);
    await events.next((e) => e.type === 'lane' && e.data.name === 'render' && e.data.shared?.unreachableSince != null);
    const status = await a.cli('status');
    expect(status.stdout).toMatch(/render: Redis unreachable since \d\d:\d\d/);
    const refused = await a.cli('add', '--lane', 'render', '--', 'echo', 'lost?');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/Redis at redis:\/\/127\.0\.0\.1:\d+\/0 has been unreachable since .*nothing was queued/);
    // The local lane is not held up by a shared one.
    const local = await a.cli('add', '--', 'true');
    expect((await a.cli('wait', local.stdout.trim())).code).toBe(0);
    await redis.restart();
    await events.next((e) => e.type === 'lane' && e.data.name === 'render' && e.data.shared?.unreachableSince === null);
    events.close();
    await Promise.all([a.cli('cap', 'render', '2'), b.cli('cap', 'render', '2')]);
    expect((await b.cli('wait', ...ids.map(String))).code).toBe(0);
  }, 120_000);

  it('Redis stopped with SIGSTOP: status says it is not answering within seconds, an add fails at once and says nothing was queued', async () => {
    const a = await engine('engine-a');
    await share('render', a);
    const ids = await addFrom(a, 'render', ['echo 1', 'echo 2']);
    expect((await a.cli('wait', ...ids.map(String))).code).toBe(0);
    const events = await recordEvents(a.client);
    process.kill(redis.pid, 'SIGSTOP');
    try {
      await events.next((e) => e.type === 'lane' && e.data.name === 'render' && e.data.shared?.notAnswering === true);
      expect((await a.cli('status')).stdout).toMatch(/render: Redis not answering since \d\d:\d\d/);
      const refused = await a.cli('add', '--lane', 'render', '--', 'echo', 'lost?');
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toMatch(/has not answered since .*nothing was queued/);
    } finally {
      process.kill(redis.pid, 'SIGCONT');
    }
    await events.next((e) => e.type === 'lane' && e.data.name === 'render' && e.data.shared?.unreachableSince === null);
    events.close();
    const more = await addFrom(a, 'render', ['echo 3']);
    expect((await a.cli('wait', ...more.map(String))).code).toBe(0);
  }, 90_000);

  it('cancel and retry, one or many, from an engine that did not queue them', async () => {
    const [a, b] = await Promise.all([engine('engine-a'), engine('engine-b')]);
    await share('render', a, b);
    await Promise.all([a.cli('cap', 'render', '0'), b.cli('cap', 'render', '0')]);
    const ids = await addFrom(a, 'render', ['echo 1', 'echo 2', 'echo 3']);
    const one = await b.cli('cancel', String(ids[0]));
    expect(one.code).toBe(0);
    expect((await a.api('job', { id: ids[0]! })).state).toBe('cancelled');
    expect(await b.api('cancelJobs', { lane: 'render' })).toEqual({ cancelled: 2, stopping: 0 });
    expect(await a.api('retryJobs', { lane: 'render', state: 'cancelled' })).toEqual({ retried: 3 });
    await b.cli('cap', 'render', '2');
    expect((await a.cli('wait', ...ids.map(String))).code).toBe(0);
    const failing = await addFrom(a, 'render', ['exit 3']);
    const failed = await a.cli('wait', String(failing[0]));
    expect(failed.code).not.toBe(0);
    const again = await b.cli('retry', String(failing[0]));
    expect(again.code).toBe(0);
    expect((await b.api('job', { id: failing[0]! })).state).not.toBe('failed');
  }, 90_000);

  it('a shared persistent lane: each engine runs its own worker command', async () => {
    const [a, b] = await Promise.all([engine('engine-a'), engine('engine-b')]);
    const worker = ['--worker-command', 'python3', 'examples/word_stats_worker.py'];
    for (const e of [a, b]) expect((await e.cli('lane', 'add', 'words', '--class', 'ml', '--cap', '1', '--redis', redis.url, ...worker)).code).toBe(0);
    // The lane's kind is agreed: a shell-command lane of the same name is refused.
    const c = await engine('engine-c');
    const wrong = await c.cli('lane', 'add', 'words', '--redis', redis.url);
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toMatch(/runs payloads for a worker command/);
    const ids = await addFrom(a, 'words', Array.from({ length: 6 }, (_, i) => JSON.stringify({ text: `word ${i} and more` })));
    expect((await b.cli('wait', ...ids.map(String))).code).toBe(0);
    const job = await b.api('job', { id: ids[0]! });
    expect(job.result).not.toBeNull();
  }, 90_000);

  it('a password never shows: not in status, events, the ledger or the log; a wrong one is refused in words', async () => {
    const secret = 'sw0rdf1sh-' + Math.random().toString(36).slice(2);
    const locked = await startRedis({ password: secret });
    try {
      const a = await engine('engine-a');
      const events = await recordEvents(a.client);
      const added = await a.cli('lane', 'add', 'vault', '--redis', locked.url, '--json');
      expect(added.code).toBe(0);
      const ids = await addFrom(a, 'vault', ['echo hi']);
      expect((await a.cli('wait', String(ids[0]))).code).toBe(0);
      const seen = [added.stdout, (await a.cli('status', '--json')).stdout, (await a.cli('status')).stdout, (await a.cli('events', '--json')).stdout, JSON.stringify(events.events)];
      events.close();
      for (const text of seen) expect(text).not.toContain(secret);
      expect(added.stdout).toContain(`redis://:***@127.0.0.1:${locked.port}/0`);
      const wrong = await a.cli('lane', 'add', 'vault2', '--redis', `redis://:not-${secret}@127.0.0.1:${locked.port}`);
      expect(wrong.code).not.toBe(0);
      expect(wrong.stderr).not.toContain(secret);
      expect(wrong.stderr).toMatch(/WRONGPASS|invalid username-password|NOAUTH/i);
      await a.stop();
      expect(a.process.stdout() + a.process.stderr()).not.toContain(secret);
    } finally {
      await locked.remove();
    }
  }, 60_000);

  it('refuses a Redis on another machine without a password unless told --insecure-redis', async () => {
    const a = await engine('engine-a');
    const refused = await a.cli('lane', 'add', 'far', '--redis', 'redis://192.0.2.7:6379');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/not on this machine and has no password.*--insecure-redis/s);
  }, 30_000);
});
