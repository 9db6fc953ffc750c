// Jobs through the engine: no-op jobs against BullMQ, `true` as shell jobs against a bare Node
// spawn and task-spooler, with what each no-op job costs the engine in CPU and disk writes.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appRoot } from '../../electron/paths/app-files.js';
import type { BullPeer } from './bullmq-peer.js';
import { drain, NOOP_WORKER, type Drain } from './lanes-daemon.js';
import { findOnPath } from '../support/redis.js';
import { alternate, compared, perSecond, summarize, type Figure } from './stats.js';

const SECTION = 'Jobs through the engine';

export async function noopFigures(pairs: number, n: number, bull: BullPeer): Promise<Figure[]> {
  const drains: Drain[] = [];
  const series = await alternate(
    pairs,
    async () => {
      const d = await drain(n, 2, { payload: {} }, { name: 'noop', workerCommand: NOOP_WORKER });
      drains.push(d);
      return d.jobsPerSecond;
    },
    () => bull.noopDrain(n, 2),
  );
  const cpu = summarize(drains.map((d) => d.cpuUsPerJob));
  const bytes = summarize(drains.map((d) => d.bytesPerJob / 1000));
  const noop = compared({ section: SECTION, what: `no-op jobs drained by 2 workers (${n.toLocaleString('en-US')} jobs)`, unit: 'jobs/s', target: 'ratio ≥ 1.1' }, series, 'BullMQ, 2 worker processes of concurrency 1');
  noop.judge = (g) => g.compared!.value.median >= 1.1;
  return [
    noop,
    { section: SECTION, what: 'engine CPU per no-op job (user + system of the engine process over the drain)', unit: 'µs', lanes: cpu, target: '≤ 100 µs', judge: (f) => f.lanes.median <= 100 },
    {
      section: SECTION,
      what: 'bytes written to disk per no-op job (the engine process’s `write_bytes` in `/proc/PID/io` over the drain)',
      unit: 'kB',
      lanes: bytes,
      target: '≤ 10 kB',
      judge: (f) => f.lanes.median <= 10,
    },
  ];
}

/** `argv` `n` times, `parallel` at a time, spawned from a small Node process of its own (spawn-loop.ts). */
function smallProcessSpawnRate(argv: string[], n: number, parallel: number): number {
  const out = execFileSync(process.execPath, [join(appRoot, 'dist', 'test', 'bench', 'spawn-loop.js'), String(n), String(parallel), ...argv], { encoding: 'utf8' });
  return (JSON.parse(out) as { jobsPerSecond: number }).jobsPerSecond;
}

/**
 * task-spooler with 2 slots, timed as Lanes is: the jobs are queued first, held behind two gate
 * jobs (one per slot), and the clock runs from their release to the last job's end, so the
 * figure is tsp running jobs, not its `tsp true` client calls (Lanes' side queues its jobs in one
 * request, which its figure includes).
 */
function tspRate(n: number): number {
  const dir = mkdtempSync(join(tmpdir(), 'lanes-bench-tsp-'));
  const env = { ...process.env, TS_SOCKET: join(dir, 'socket'), TMPDIR: dir, TS_MAXFINISHED: String(n + 10) };
  const tsp = (...args: string[]) => execFileSync('tsp', args, { env, encoding: 'utf8' }).trim();
  const gate = join(dir, 'gate');
  try {
    tsp('-S', '2');
    for (let slot = 0; slot < 2; slot++) tsp('sh', '-c', `while [ ! -e '${gate}' ]; do sleep 0.01; done`);
    const ids: string[] = [];
    for (let i = 0; i < n; i++) ids.push(tsp('true'));
    const t0 = performance.now();
    writeFileSync(gate, '');
    // Two slots take jobs in order, so the last job to end is one of the last two queued.
    for (const id of ids.slice(-2)) tsp('-w', id);
    return perSecond(n, performance.now() - t0);
  } finally {
    try {
      tsp('-K');
    } catch {
      // Already gone.
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function shellFigures(pairs: number, n: number): Promise<Figure[]> {
  const hasTsp = findOnPath('tsp') !== null;
  const lanes: number[] = [];
  const bare: number[] = [];
  const tsp: number[] = [];
  for (let i = 0; i < pairs; i++) {
    lanes.push((await drain(n, 2, { argv: ['true'] }, { name: 'worker' }, 4)).jobsPerSecond);
    bare.push(smallProcessSpawnRate(['true'], n, 2));
    if (hasTsp) tsp.push(tspRate(n));
  }
  const what = `\`true\` as shell jobs, 2 at a time (${n} jobs)`;
  const figures = [compared({ section: SECTION, what, unit: 'jobs/s' }, { lanes, peer: bare }, 'Node spawn with pipes, 2 at a time, from a small Node process of its own')];
  if (hasTsp) figures.push(compared({ section: SECTION, what, unit: 'jobs/s' }, { lanes, peer: tsp }, 'task-spooler (tsp), 2 slots, timed from the release of jobs already queued'));
  else figures[0]!.note = 'task-spooler (tsp) is not installed here, so it was not compared';
  return figures;
}
