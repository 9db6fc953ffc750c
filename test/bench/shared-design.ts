// What a shared lane could reach if each worker process spoke to Redis itself (bull-run-worker.ts)
// against BullMQ with as many processes (bullmq-worker.ts), on one redis-server, alternating: the
// drain of no-op jobs, and the CPU per job of the processes each side runs (for the design, its
// worker commands too). An engine would spend nothing per job there. These say whether the design
// is worth building on this machine before it is built.
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { appRoot } from '../../electron/paths/app-files.js';
import { childrenOf, NOOP_WORKER, processUse } from './lanes-daemon.js';
import { compared, perSecond, until, type Figure } from './stats.js';

const SECTION = 'Shared lanes on Redis';
const BENCH = join(appRoot, 'dist', 'test', 'bench');
const DATA = { lanes: 1, spec: { kind: 'payload', payload: {} }, timeoutMs: null };

let runs = 0;

interface Drain {
  jobsPerSecond: number;
  /** CPU of the side's processes (and theirs), all together, per job drained. */
  cpuUsPerJob: number;
}

function start(script: string, args: string[]): Promise<ChildProcess> {
  const child = fork(join(BENCH, script), args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('message', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`${script} exited (${code}) before it was ready`)));
  });
}

const stop = (child: ChildProcess): Promise<void> =>
  new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.send('stop');
  });

/** `n` no-op jobs drained by `processes` of one side, after a warm-up of 200. */
async function drain(port: number, design: boolean, processes: number, n: number): Promise<Drain> {
  const name = `design-${++runs}`;
  const logDir = mkdtempSync(join(tmpdir(), 'lanes-bench-design-'));
  const queue = new Queue(name, { connection: { host: '127.0.0.1', port }, ...(design ? { prefix: 'lanes' } : {}) });
  const args = design ? [String(port), name, logDir, JSON.stringify(NOOP_WORKER)] : [String(port), name];
  const children = await Promise.all(Array.from({ length: processes }, () => start(design ? 'bull-run-worker.js' : 'bullmq-worker.js', args)));
  const admin = new Redis({ host: '127.0.0.1', port });
  try {
    const add = async (count: number) => {
      for (let i = 0; i < count; i += 10_000) await queue.addBulk(Array.from({ length: Math.min(10_000, count - i) }, () => ({ name: 'noop', data: design ? DATA : {} })));
    };
    const completed = async () => (await queue.getJobCounts('completed')).completed ?? 0;
    await add(200);
    await until(async () => (await completed()) >= 200, 'design warm-up');
    const pids = children.flatMap((c) => [c.pid!, ...childrenOf(c.pid!)]);
    const cpu = () => pids.reduce((ms, pid) => ms + processUse(pid).cpuMs, 0);
    const cpu0 = cpu();
    const t0 = performance.now();
    await add(n);
    await until(async () => (await completed()) >= 200 + n, 'design drain', 300_000, 20);
    const ms = performance.now() - t0;
    return { jobsPerSecond: perSecond(n, ms), cpuUsPerJob: ((cpu() - cpu0) * 1000) / n };
  } finally {
    await Promise.all(children.map(stop));
    await queue.close();
    await admin.flushall();
    await admin.quit();
    rmSync(logDir, { recursive: true, force: true });
  }
}

export async function sharedDesignFigures(pairs: number, n: number, port: number, processes = 2): Promise<Figure[]> {
  const drains = { design: [] as Drain[], bull: [] as Drain[] };
  for (let i = 0; i < pairs; i++) {
    drains.design.push(await drain(port, true, processes, n));
    drains.bull.push(await drain(port, false, processes, n));
  }
  const series = (pick: (d: Drain) => number) => ({ lanes: drains.design.map(pick), peer: drains.bull.map(pick) });
  const peer = `BullMQ, ${processes} worker processes of concurrency 1`;
  const what = `no-op jobs drained by ${processes} worker processes speaking to Redis themselves, each job run as a Lanes worker runs it (the design, not built; ${n.toLocaleString('en-US')} jobs)`;
  return [
    compared({ section: SECTION, what, unit: 'jobs/s' }, series((d) => d.jobsPerSecond), peer),
    compared({ section: SECTION, what: 'CPU per job of those processes and their worker commands', unit: 'µs' }, series((d) => d.cpuUsPerJob), peer),
  ];
}
