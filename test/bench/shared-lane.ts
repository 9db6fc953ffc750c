// A shared lane against BullMQ itself, on the same redis-server: no-op jobs drained by two
// engines with one worker each (two `lanes daemon`s joined to one lane) against BullMQ with two
// worker processes, and batched queueing through the API (addJobs) against addBulk. The issue's
// target: the shared lane drains at least 70 % as fast as BullMQ with the same two processes.
// Finished jobs are counted as BullMQ counts them for both (its completed metric), read as often
// as the peer's counts are, so neither side's clock stops later than the other's.
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import type { BullPeer } from './bullmq-peer.js';
import { NOOP_WORKER, withDaemon, type Daemon } from './lanes-daemon.js';
import { alternate, compared, perSecond, until, type Figure } from './stats.js';

const SECTION = 'Shared lanes on Redis';
/** BullMQ's prefix for Lanes' shared queues (electron/engine/shared-lanes/parts.ts). */
const PREFIX = 'lanes';

let runs = 0;

/** Both engines join `lane` on Redis, one worker each; `fn` runs with them and the queue. */
async function withSharedLane<T>(port: number, cap: number, fn: (a: Daemon, b: Daemon, lane: string, completed: () => Promise<number>) => Promise<T>): Promise<T> {
  const lane = `noop${++runs}`;
  const redis = `redis://127.0.0.1:${port}`;
  const queue = new Queue(lane, { connection: { host: '127.0.0.1', port }, prefix: PREFIX });
  const completed = async () => (await queue.getMetrics('completed', 0, 0)).meta.count;
  try {
    return await withDaemon((a) =>
      withDaemon(async (b) => {
        for (const d of [a, b]) await d.api('addLane', { name: lane, cap, workerCommand: NOOP_WORKER, queue: { redis } });
        return fn(a, b, lane, completed);
      }),
    );
  } finally {
    await queue.close();
    const admin = new Redis({ host: '127.0.0.1', port });
    await admin.flushall();
    await admin.quit();
  }
}

/** `n` no-op jobs queued on one engine and drained by both, after a warm-up of 200. */
function sharedDrain(port: number, n: number): Promise<number> {
  return withSharedLane(port, 1, async (a, _b, lane, completed) => {
    const queueAll = async (count: number) => {
      for (let i = 0; i < count; i += 10_000) await a.api('addJobs', { jobs: Array(Math.min(10_000, count - i)).fill({ lane, payload: {} }) });
    };
    await queueAll(200);
    await until(async () => (await completed()) >= 200, 'shared lane warm-up', 120_000, 20);
    const t0 = performance.now();
    await queueAll(n);
    await until(async () => (await completed()) >= 200 + n, 'shared lane drain', 300_000, 20);
    return perSecond(n, performance.now() - t0);
  });
}

/** addJobs of `batches` × `size` to a shared lane nobody takes from (cap 0), as BullMQ's addBulk is measured. */
function sharedAddJobs(port: number, batches: number, size: number): Promise<number> {
  return withSharedLane(port, 0, async (a, _b, lane) => {
    const jobs = Array.from({ length: size }, () => ({ lane, payload: { argv: ['true'] } }));
    const t0 = performance.now();
    for (let i = 0; i < batches; i++) await a.api('addJobs', { jobs });
    return perSecond(batches * size, performance.now() - t0);
  });
}

export async function sharedLaneFigures(pairs: number, n: number, batches: number, bull: BullPeer): Promise<Figure[]> {
  const drain = await alternate(pairs, () => sharedDrain(bull.port, n), () => bull.noopDrain(n, 2));
  const noop = compared(
    { section: SECTION, what: `no-op jobs of one shared lane drained by 2 engines × 1 worker (${n.toLocaleString('en-US')} jobs)`, unit: 'jobs/s', target: 'ratio ≥ 0.7' },
    drain,
    'BullMQ, 2 worker processes of concurrency 1',
  );
  noop.judge = (g) => g.compared!.value.median >= 0.7;
  const size = 1_000;
  const add = await alternate(pairs, () => sharedAddJobs(bull.port, batches, size), () => bull.addBulk(batches, size));
  const batched = compared({ section: SECTION, what: `jobs queued to a shared lane by addJobs, batches of ${size}`, unit: 'jobs/s' }, add, `BullMQ addBulk, batches of ${size}`);
  return [noop, batched];
}
