// Measuring what a worker holds, on real processes: a "worker" whose child (in a session of its
// own, as jobs and persistent commands run) allocates 200 MiB and says so. The measure of the
// worker's pid must see the child's memory; the CPU the child burns must show up as the tree's.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { WorkerMeter } from '../../../electron/engine/machine/worker-meter.js';
import { tempDir } from '../../support/engine.js';
import { within } from '../../support/poll.js';

const MiB = 2 ** 20;
const HELD = 200 * MiB;

const CHILD = `
const held = Buffer.alloc(${HELD}, 1);
process.stdout.write('allocated ' + process.pid + ' ' + held.length + '\\n');
process.stdin.on('data', () => {
  const t = process.cpuUsage();
  for (;;) { const u = process.cpuUsage(t); if (u.user + u.system >= 300000) break; }
  process.stdout.write('spun\\n');
});`;

const PARENT = `
const { spawn } = require('node:child_process');
const child = spawn(process.execPath, ['-e', ${JSON.stringify(CHILD)}], { stdio: ['pipe', 'pipe', 'inherit'], detached: true });
child.stdout.pipe(process.stdout);
process.stdin.pipe(child.stdin);
process.stdin.on('end', () => child.kill('SIGKILL'));`;

interface Tree {
  worker: ChildProcessByStdio<Writable, Readable, null>;
  childPid: number;
  next(prefix: string): Promise<string>;
}

const started: Tree[] = [];

async function startTree(): Promise<Tree> {
  const worker = spawn(process.execPath, ['-e', PARENT], { stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting: { prefix: string; resolve: (line: string) => void }[] = [];
  createInterface({ input: worker.stdout }).on('line', (line) => {
    const i = waiting.findIndex((w) => line.startsWith(w.prefix));
    if (i >= 0) waiting.splice(i, 1)[0]!.resolve(line);
  });
  const next = (prefix: string) => within(new Promise<string>((resolve) => waiting.push({ prefix, resolve })), `the worker's "${prefix}" line`);
  const line = await next('allocated');
  const tree = { worker, childPid: Number(line.split(' ')[1]), next };
  started.push(tree);
  return tree;
}

afterEach(() => {
  for (const t of started.splice(0)) {
    for (const pid of [t.childPid, t.worker.pid!]) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone already
      }
    }
  }
});

describe.skipIf(process.platform !== 'linux')('what a worker holds, from /proc', () => {
  it('sees the memory of a child in a session of its own, within a runtime or two of it', async () => {
    const t = await startTree();
    const { workers } = await new WorkerMeter().measure([{ id: 'w', pid: t.worker.pid! }]);
    const [w] = workers;
    expect(w!.processes).toBe(2);
    expect(w!.bytes).toBeGreaterThanOrEqual(HELD);
    // Two Node runtimes beside the 200 MiB: well under 150 MiB between them.
    expect(w!.bytes).toBeLessThan(HELD + 150 * MiB);
  });

  it('counts the CPU the tree burns between two measures', async () => {
    const t = await startTree();
    const meter = new WorkerMeter();
    const first = await meter.measure([{ id: 'w', pid: t.worker.pid! }]);
    expect(first.cpuMs).toBe(0);
    t.worker.stdin.write('spin\n');
    await t.next('spun');
    const second = await meter.measure([{ id: 'w', pid: t.worker.pid! }]);
    // 300 ms of CPU, counted in 10 ms ticks; the worker's own piping adds a little.
    expect(second.workers[0]!.cpuMs).toBeGreaterThanOrEqual(280);
    expect(second.cpuMs).toBe(second.workers[0]!.cpuMs);
  });

  it('a worker that is gone holds nothing', async () => {
    const t = await startTree();
    const meter = new WorkerMeter();
    t.worker.kill('SIGKILL');
    await new Promise((r) => t.worker.once('exit', r));
    const { workers } = await meter.measure([{ id: 'gone', pid: t.worker.pid! }]);
    expect(workers[0]).toEqual({ id: 'gone', bytes: 0, cpuMs: 0, processes: 0, pids: [] });
  });

  it('a process in a cgroup given for the worker counts at the cgroup’s working set, not twice', async () => {
    const t = await startTree();
    // The files a cgroup v2 directory shows, written where this test can: the child is "in" it.
    const { dir, cleanup } = tempDir();
    try {
      const group = join(dir, 'job-1-1');
      mkdirSync(group);
      writeFileSync(join(group, 'cgroup.procs'), `${t.childPid}\n`);
      writeFileSync(join(group, 'memory.current'), String(300 * MiB));
      writeFileSync(join(group, 'memory.stat'), `anon ${250 * MiB}\ninactive_file ${50 * MiB}\n`);
      const meter = new WorkerMeter();
      const alone = (await meter.measure([{ id: 'w', pid: t.worker.pid! }])).workers[0]!;
      const grouped = (await meter.measure([{ id: 'w', pid: t.worker.pid!, cgroups: [group, join(dir, 'command-1')] }])).workers[0]!;
      // The child's RSS (≥ 200 MiB) is replaced by the group's 250 MiB working set.
      const workerOwn = grouped.bytes - 250 * MiB;
      expect(workerOwn).toBeGreaterThan(0);
      expect(workerOwn).toBeLessThan(100 * MiB);
      expect(alone.bytes - workerOwn).toBeGreaterThanOrEqual(HELD);
    } finally {
      cleanup();
    }
  });
});

describe('what a worker holds, from systeminformation (the path macOS and Windows take)', () => {
  it('sees the same tree', async () => {
    const t = await startTree();
    const { workers } = await new WorkerMeter({ portable: true }).measure([{ id: 'w', pid: t.worker.pid! }]);
    expect(workers[0]!.processes).toBe(2);
    expect(workers[0]!.bytes).toBeGreaterThanOrEqual(HELD);
    expect(workers[0]!.bytes).toBeLessThan(HELD + 150 * MiB);
  });
});
