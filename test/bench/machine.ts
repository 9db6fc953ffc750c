// What watching the machine costs: measuring 50 workers (each a small process tree, as a worker
// with a job is) and one whole sample of the machine, in CPU time per sample, against the budget
// of 1 % of one core. Compared side by side with systeminformation's process list, the path
// macOS and Windows take. Alone: `node dist/test/bench/machine.js` prints the figures as JSON.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { MachineWatcher } from '../../electron/engine/machine/watcher.js';
import { ENGINE_DEFAULTS } from '../../electron/engine/defaults.js';
import { WorkerMeter, type WorkerTarget } from '../../electron/engine/machine/worker-meter.js';
import { summarize, type Figure } from './stats.js';

const WORKERS = 50;
/** The sizer's default tick: the brief's budget is per tick, the watcher samples four times as often. */
const TICK_MS = 60_000;

/** A worker with a job: a shell that runs two children, three processes in all. */
function startTrees(n: number): ChildProcess[] {
  return Array.from({ length: n }, () => spawn('/bin/sh', ['-c', 'sleep 600 & sleep 600 & wait'], { stdio: 'ignore', detached: true }));
}

/** Resolves once every tree has its two children (readable in /proc), without sleeping blindly. */
async function treesReady(trees: ChildProcess[], meter: WorkerMeter): Promise<WorkerTarget[]> {
  const targets = trees.map((t, i) => ({ id: `w${i}`, pid: t.pid! }));
  for (let i = 0; i < 500; i++) {
    const { workers } = await meter.measure(targets);
    if (workers.every((w) => w.processes === 3)) return targets;
    await new Promise((r) => setImmediate(r));
  }
  throw new Error('the worker trees did not start');
}

/** CPU-ms this process and the children it has reaped (a `ps`) have used so far. */
function cpuMs(): number {
  const f = readFileSync('/proc/self/stat', 'utf8');
  const fields = f.slice(f.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * 10;
}

/**
 * CPU ms (this process and its reaped children) of each of `times` runs of `fn`, and the wall ms.
 * `gapMs` apart: systeminformation answers from a cache for 500 ms after a call.
 */
async function cpuPerRun(times: number, fn: () => Promise<unknown>, gapMs = 0): Promise<{ cpu: number[]; wall: number[] }> {
  const cpu: number[] = [];
  const wall: number[] = [];
  // Ticks are 10 ms: a run is timed in batches long enough for them to count.
  for (let i = 0; i < times; i++) {
    if (gapMs) await new Promise((r) => setTimeout(r, gapMs));
    const batch = gapMs ? 1 : 10;
    const c0 = cpuMs();
    const t0 = performance.now();
    for (let j = 0; j < batch; j++) await fn();
    wall.push((performance.now() - t0) / batch);
    cpu.push((cpuMs() - c0) / batch);
  }
  return { cpu, wall };
}

export async function machineMeasures(samples = 40): Promise<Figure[]> {
  if (process.platform !== 'linux') return [];
  const trees = startTrees(WORKERS);
  try {
    const meter = new WorkerMeter();
    const targets = await treesReady(trees, meter);
    const onMachine = readdirSync('/proc').filter((d) => /^\d+$/.test(d)).length;
    const scan = await cpuPerRun(samples, () => meter.measure(targets));
    const watcher = await MachineWatcher.open({ env: {}, workers: () => targets });
    const whole = await cpuPerRun(samples, () => watcher.refresh());
    const portable = await cpuPerRun(Math.max(3, samples / 8), () => new WorkerMeter({ portable: true }).measure(targets), 600);
    const share = (ms: number, every: number) => (ms / every) * 100;
    const section = 'Watching the machine';
    const sample = summarize(whole.cpu);
    const perSample = summarize(whole.cpu.map((ms) => share(ms, ENGINE_DEFAULTS.sampleMs)));
    const perTick = summarize(whole.cpu.map((ms) => share(ms, TICK_MS)));
    return [
      { section, what: `measure ${WORKERS} workers (${onMachine} processes on the machine), /proc`, unit: 'ms', lanes: summarize(scan.cpu), note: `wall ${summarize(scan.wall).median.toFixed(1)} ms` },
      { section, what: 'of which per process on the machine (a desktop has 300–1,000)', unit: 'µs', lanes: summarize(scan.cpu.map((ms) => (ms / onMachine) * 1000)) },
      { section, what: 'the same through systeminformation (the macOS and Windows path)', unit: 'ms', lanes: summarize(portable.cpu), note: `wall ${summarize(portable.wall).median.toFixed(1)} ms` },
      { section, what: 'one machine sample with those workers', unit: 'ms', lanes: sample },
      { section, what: `machine samples (every ${ENGINE_DEFAULTS.sampleMs / 1000} s), share of one core`, unit: '%', lanes: perSample, target: '≤ 1 %', judge: (f) => f.lanes.median <= 1 },
      { section, what: `the same per sizer tick (${TICK_MS / 1000} s), had it sampled once a tick`, unit: '%', lanes: perTick, target: '≤ 1 %', judge: (f) => f.lanes.median <= 1 },
    ];
  } finally {
    for (const t of trees) {
      try {
        process.kill(-t.pid!, 'SIGKILL');
      } catch {
        // gone already
      }
    }
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const figures = await machineMeasures(Number(process.argv[2] ?? 40));
  process.stdout.write(JSON.stringify(figures, null, 2) + '\n');
}
