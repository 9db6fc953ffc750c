// A shared lane against BullMQ itself, on the same redis-server: no-op jobs drained by one engine
// at cap 2 against BullMQ with two worker processes, and by two engines at cap 2 each (two
// `lanes daemon`s joined to one lane) against BullMQ with four; the engines' own CPU per job; and
// batched queueing through the API (addJobs) against addBulk. The targets: each drain at least
// 90 % of BullMQ's with as many processes, and at most 50 µs of engine CPU per job.
// Finished jobs are counted as BullMQ counts them for both (its completed metric), read as often
// as the peer's counts are, so neither side's clock stops later than the other's.
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import type { BullPeer } from './bullmq-peer.js';
import { NOOP_WORKER, processUse, withDaemon, type Daemon } from './lanes-daemon.js';
import { alternate, compared, perSecond, summarize, until, type Figure } from './stats.js';

const SECTION = 'Shared lanes on Redis';
/** BullMQ's prefix for Lanes' shared queues (electron/engine/shared-lanes/parts.ts). */
const PREFIX = 'lanes';

let runs = 0;

/** `engines` engines join `lane` on Redis at `cap`; `fn` runs with them and the queue. */
async function withSharedLane<T>(port: number, engines: number, cap: number, fn: (all: Daemon[], lane: string, completed: () => Promise<number>) => Promise<T>): Promise<T> {
  const lane = `noop${++runs}`;
  const redis = `redis://127.0.0.1:${port}`;
  const queue = new Queue(lane, { connection: { host: '127.0.0.1', port }, prefix: PREFIX });
  const completed = async () => (await queue.getMetrics('completed', 0, 0)).meta.count;
  const joined = (all: Daemon[]): Promise<T> =>
    all.length < engines
      ? withDaemon((d) => joined([...all, d]))
      : (async () => {
          for (const d of all) await d.api('addLane', { name: lane, cap, workerCommand: NOOP_WORKER, queue: { redis } });
          return fn(all, lane, completed);
        })();
  try {
    return await joined([]);
  } finally {
    await queue.close();
    const admin = new Redis({ host: '127.0.0.1', port });
    await admin.flushall();
    await admin.quit();
  }
}

interface SharedDrain {
  jobsPerSecond: number;
  /** The engines' own CPU (not their workers'), all together, per job drained. */
  cpuUsPerJob: number;
}

/** `n` no-op jobs queued on the first engine and drained by all, after a warm-up of 200. */
function sharedDrain(port: number, engines: number, cap: number, n: number): Promise<SharedDrain> {
  return withSharedLane(port, engines, cap, async (all, lane, completed) => {
    const queueAll = async (count: number) => {
      for (let i = 0; i < count; i += 10_000) await all[0]!.api('addJobs', { jobs: Array(Math.min(10_000, count - i)).fill({ lane, payload: {} }) });
    };
    await queueAll(200);
    await until(async () => (await completed()) >= 200, 'shared lane warm-up', 120_000, 20);
    const cpu = () => all.reduce((ms, d) => ms + processUse(d.pid).cpuMs, 0);
    const cpu0 = cpu();
    const t0 = performance.now();
    await queueAll(n);
    await until(async () => (await completed()) >= 200 + n, 'shared lane drain', 300_000, 20);
    const ms = performance.now() - t0;
    return { jobsPerSecond: perSecond(n, ms), cpuUsPerJob: ((cpu() - cpu0) * 1000) / n };
  });
}

/** addJobs of `batches` × `size` to a shared lane nobody takes from (cap 0), as BullMQ's addBulk is measured. */
function sharedAddJobs(port: number, batches: number, size: number): Promise<number> {
  return withSharedLane(port, 2, 0, async ([a], lane) => {
    const jobs = Array.from({ length: size }, () => ({ lane, payload: { argv: ['true'] } }));
    const t0 = performance.now();
    for (let i = 0; i < batches; i++) await a!.api('addJobs', { jobs });
    return perSecond(batches * size, performance.now() - t0);
  });
}

export async function sharedLaneFigures(pairs: number, n: number, batches: number, bull: BullPeer): Promise<Figure[]> {
  const cpu: number[] = [];
  const drains: Figure[] = [];
  for (const [engines, processes] of [
    [1, 2],
    [2, 4],
  ] as const) {
    const series = await alternate(
      pairs,
      async () => {
        const d = await sharedDrain(bull.port, engines, 2, n);
        if (engines === 1) cpu.push(d.cpuUsPerJob);
        return d.jobsPerSecond;
      },
      () => bull.noopDrain(n, processes),
    );
    const what = `no-op jobs of one shared lane drained by ${engines === 1 ? '1 engine at cap 2' : `${engines} engines at cap 2 each`} (${n.toLocaleString('en-US')} jobs)`;
    const figure = compared({ section: SECTION, what, unit: 'jobs/s', target: 'ratio ≥ 0.9' }, series, `BullMQ, ${processes} worker processes of concurrency 1`);
    figure.judge = (g) => g.compared!.value.median >= 0.9;
    drains.push(figure);
  }
  const engineCpu: Figure = { section: SECTION, what: 'engine CPU per shared job (1 engine at cap 2, its workers not counted)', unit: 'µs', lanes: summarize(cpu), target: '≤ 50' };
  engineCpu.judge = (g) => g.lanes.median <= 50;
  const size = 1_000;
  const add = await alternate(pairs, () => sharedAddJobs(bull.port, batches, size), () => bull.addBulk(batches, size));
  const batched = compared({ section: SECTION, what: `jobs queued to a shared lane by addJobs, batches of ${size}`, unit: 'jobs/s' }, add, `BullMQ addBulk, batches of ${size}`);
  return [...drains, engineCpu, batched];
}
