// A shared lane's workers take their jobs from Redis themselves, through BullMQ's own Worker, and
// the engine only sizes them and hears what they run. What must hold: under a deep backlog each
// job runs once, on its first attempt, and every one is announced as it ends; a job cancelled
// while queued never runs, and the worker goes on to the next; a worker killed mid-job has its
// job given back at once (not after the stall delay), which runs again on its next attempt while
// the rest run once.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { engineEachTest, jobsFinished, nextEvent, until } from '../support/engine.js';
import { payloads, quickLane, ran, startedWith } from '../support/quick-lane.js';
import { redisForFile } from '../support/redis-suite.js';

const redis = redisForFile();

const t = engineEachTest({ cores: 3 });


async function sharedLane(cap: number): Promise<void> {
  await t.engine.request('addLane', { name: 'quick', cap, workerCommand: quickLane(t.dir), queue: { redis: redis.url } });
  await jobsFinished(t.engine, (await t.engine.request('addJobs', { jobs: payloads(0, 50) })).ids);
}

/** Kills (SIGKILL) this engine's worker runtime of the lane (Linux): it is named for its lane, as the pool starts it. */
function killWorker(lane: string): void {
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    let argv: string[];
    try {
      argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    if (argv.some((a) => a.endsWith('shared-main.js')) && argv.includes(`lanes-worker:${lane}`) && Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]) === process.pid) {
      process.kill(Number(pid), 'SIGKILL');
      return;
    }
  }
  throw new Error(`no worker of lane ${lane} runs here`);
}

/** The slow job started on the lane's one worker, the others queued behind it. */
async function slowJobFirst(): Promise<number[]> {
  await t.engine.request('setCap', { lane: 'quick', cap: 0 });
  const { ids } = await t.engine.request('addJobs', { jobs: [{ lane: 'quick', payload: { n: 100, wait: true }, maxAttempts: 2 }, ...payloads(101, 4)] });
  const lane = () => t.engine.status().lanes.find((l) => l.name === 'quick')!;
  await until(t.engine, () => lane().waiting === 5 && lane().workers === 0, 30_000, 'the shared backlog seen');
  await t.engine.request('setCap', { lane: 'quick', cap: 1 });
  await until(t.engine, () => startedWith(t.dir, 100), 30_000, 'the waiting job started');
  // One worker, on the slow job (the one before it gone): nothing else is taken from Redis meanwhile.
  await until(t.engine, () => lane().workers === 1 && lane().busy === 1 && lane().draining === 0, 30_000, 'one worker, running the slow job');
  const state = async (id: number) => (await t.engine.request('job', { id })).state;
  expect(await state(ids[1]!)).toBe('queued');
  return ids;
}

describe('the workers of a shared lane', () => {
  it('a deep backlog of short jobs runs each job once, on its first attempt', async () => {
    await sharedLane(2);
    const { ids } = await t.engine.request('addJobs', { jobs: payloads(1000, 300) });
    const jobs = await jobsFinished(t.engine, ids, 120_000);
    expect(jobs.every((j) => j.state === 'succeeded' && j.attempts === 1 && j.exitCode === 0)).toBe(true);
    const runs = ran(t.dir).filter((n) => n >= 1000);
    expect(runs.length).toBe(300);
    expect(new Set(runs).size).toBe(300);
  }, 150_000);

  it('a job cancelled while queued never runs, and the worker goes on to the next', async () => {
    await sharedLane(1);
    const ids = await slowJobFirst();
    const cancelled = nextEvent(t.engine, (e) => e.type === 'job' && e.data.id === ids[1] && e.data.state === 'cancelled');
    await t.engine.request('cancel', { id: ids[1]! });
    writeFileSync(join(t.dir, 'gate'), '');
    await cancelled;
    const jobs = await jobsFinished(t.engine, ids);
    expect(jobs.map((j) => j.state)).toEqual(['succeeded', 'cancelled', 'succeeded', 'succeeded', 'succeeded']);
    expect(ran(t.dir)).not.toContain(101);
  });

  it.runIf(process.platform === 'linux')('a worker killed mid-job has its job given back at once: it runs again on its next attempt, the rest once', async () => {
    await sharedLane(1);
    const ids = await slowJobFirst();
    const lost = nextEvent(t.engine, (e) => e.type === 'scale' && e.data.reason === 'crash');
    // Back at once, in the engine's words, well before the stall delay (40–55 s) would give it back.
    const back = nextEvent(t.engine, (e) => e.type === 'job' && e.data.id === ids[0] && e.data.state === 'queued', 20_000);
    killWorker('quick');
    await lost;
    await back;
    writeFileSync(join(t.dir, 'gate'), '');
    const jobs = await jobsFinished(t.engine, ids);
    expect(jobs.every((j) => j.state === 'succeeded')).toBe(true);
    expect(jobs[0]!.attempts).toBe(2);
    expect(jobs[0]!.history.map((a) => a.outcome)).toEqual(['interrupted']);
    expect(jobs.slice(1).map((j) => j.attempts)).toEqual([1, 1, 1, 1]);
    expect(ran(t.dir).filter((n) => n > 100).sort((a, b) => a - b)).toEqual([101, 102, 103, 104]);
  });
});
