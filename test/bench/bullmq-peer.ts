// BullMQ, measured the way the Lanes figures are, as the peer each Lanes figure is divided by:
// a no-op drain with worker processes of concurrency 1, addBulk, and one add per call. Each run
// has a queue of its own and empties Redis afterwards, so every run starts from the same state.
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { appRoot } from '../../electron/paths/app-files.js';
import { perSecond, until } from './stats.js';

const WORKER = join(appRoot, 'dist', 'test', 'bench', 'bullmq-worker.js');

export class BullPeer {
  private runs = 0;
  private readonly admin: Redis;

  constructor(readonly port: number) {
    this.admin = new Redis({ host: '127.0.0.1', port });
  }

  private async withQueue<T>(fn: (queue: Queue, name: string) => Promise<T>): Promise<T> {
    const name = `bench-${++this.runs}`;
    const queue = new Queue(name, { connection: { host: '127.0.0.1', port: this.port } });
    await queue.waitUntilReady();
    try {
      return await fn(queue, name);
    } finally {
      await queue.close();
      await this.admin.flushall();
    }
  }

  /** No-op jobs per second, drained by `workers` processes of concurrency 1, from first add to last completion. */
  noopDrain(n: number, workers = 2): Promise<number> {
    return this.withQueue(async (queue, name) => {
      const children = await Promise.all(Array.from({ length: workers }, () => startWorker(this.port, name)));
      try {
        const completed = async () => (await queue.getJobCounts('completed')).completed ?? 0;
        // Warm, as Lanes' workers are: connections open and scripts loaded before the clock starts.
        await addMany(queue, 200);
        await until(async () => (await completed()) >= 200, 'BullMQ warm-up');
        const t0 = performance.now();
        await addMany(queue, n);
        await until(async () => (await completed()) >= 200 + n, 'BullMQ drain');
        return perSecond(n, performance.now() - t0);
      } finally {
        await Promise.all(children.map(stopWorker));
      }
    });
  }

  /** Jobs per second queued by addBulk in batches of `size`. */
  addBulk(batches: number, size: number): Promise<number> {
    return this.withQueue(async (queue) => {
      const jobs = Array.from({ length: size }, () => ({ name: 'job', data: { argv: ['true'] } }));
      const t0 = performance.now();
      for (let i = 0; i < batches; i++) await queue.addBulk(jobs);
      return perSecond(batches * size, performance.now() - t0);
    });
  }

  /** Jobs per second queued by one `add` per call, from `clients` callers at once, after as many untimed (warm, as Lanes' are). */
  addSingle(n: number, clients: number): Promise<number> {
    return this.withQueue(async (queue) => {
      const adds = async () => {
        let left = n;
        await Promise.all(
          Array.from({ length: clients }, async () => {
            while (left-- > 0) await queue.add('job', { argv: ['true'] });
          }),
        );
      };
      await adds();
      const t0 = performance.now();
      await adds();
      return perSecond(n, performance.now() - t0);
    });
  }

  async close(): Promise<void> {
    await this.admin.quit();
  }
}

async function addMany(queue: Queue, n: number): Promise<void> {
  for (let i = 0; i < n; i += 10_000) {
    await queue.addBulk(Array.from({ length: Math.min(10_000, n - i) }, () => ({ name: 'noop', data: {} })));
  }
}

function startWorker(port: number, queue: string): Promise<ChildProcess> {
  const child = fork(WORKER, [String(port), queue], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('message', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`a BullMQ worker exited (${code}) before it was ready`)));
  });
}

function stopWorker(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.send('stop');
  });
}
