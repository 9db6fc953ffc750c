// Each figure the engine promises, measured the way a person would meet it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appRoot } from '../../electron/paths/app-files.js';
import type { Engine } from '../../electron/engine/index.js';
import type { RequestInput } from '../../shared/requests.js';

type AddJobInput = RequestInput<'addJob'>;
import { bareForkMs, directSpawnRate, ECHO_WORKER, finished, median, nextRunning, repeat, withEngine } from './harness.js';

export interface Figure {
  what: string;
  value: number;
  unit: string;
  target?: string;
  pass?: boolean;
  note?: string;
}

/** The internals a benchmark may time directly: one sizer pass, and building every lane's status. */
interface Internals {
  fleet: { lanesChanged(): void };
  publisher: { publish(): void };
}

export async function enqueueRates(): Promise<Figure[]> {
  const single = await withEngine(async (e) => {
    await e.request('addLane', { name: 'parked', cap: 0 });
    const n = 300;
    const t0 = performance.now();
    for (let i = 0; i < n; i++) await e.request('addJob', { lane: 'parked', argv: ['true'] });
    return (n / (performance.now() - t0)) * 1000;
  });
  const batched = await withEngine(async (e) => {
    await e.request('addLane', { name: 'parked', cap: 0 });
    const jobs = Array.from({ length: 1000 }, () => ({ lane: 'parked', argv: ['true'] }));
    const t0 = performance.now();
    for (let i = 0; i < 50; i++) await e.request('addJobs', { jobs });
    return (50_000 / (performance.now() - t0)) * 1000;
  });
  return [
    { what: 'enqueue, one job per call (each synced to disk)', value: single, unit: 'jobs/s' },
    { what: 'enqueue, 1,000 jobs per call', value: batched, unit: 'jobs/s' },
  ];
}

async function noopRun(workers: number, n: number): Promise<number> {
  return withEngine(async (e) => {
    await e.request('addLane', { name: 'noop', cap: workers, workerCommand: ECHO_WORKER });
    const job: AddJobInput = { lane: 'noop', payload: { text: '' } };
    // Warm: the workers and their commands are up before the clock starts.
    const warm = finished(e, 200);
    await e.request('addJobs', { jobs: Array(200).fill(job) });
    await warm;
    const done = finished(e, n);
    const t0 = performance.now();
    for (let i = 0; i < n; i += 10_000) await e.request('addJobs', { jobs: Array(Math.min(10_000, n - i)).fill(job) });
    await done;
    return (n / (performance.now() - t0)) * 1000;
  });
}

export async function noopThroughput(runs: number): Promise<Figure[]> {
  const one = median(await repeat(runs, () => noopRun(1, 10_000)));
  const two = median(await repeat(runs, () => noopRun(2, 20_000)));
  return [
    { what: 'no-op jobs end to end, 1 worker', value: one, unit: 'jobs/s' },
    { what: 'no-op jobs end to end, 2 workers', value: two, unit: 'jobs/s', target: '≥ 3,000', pass: two >= 3000 },
  ];
}

export async function shellThroughput(runs: number): Promise<Figure[]> {
  const n = 600;
  const lanes = median(
    await repeat(runs, () =>
      withEngine(async (e) => {
        await e.request('setCap', { lane: 'worker', cap: 2 });
        const warm = finished(e, 4);
        await e.request('addJobs', { jobs: Array(4).fill({ argv: ['true'] }) });
        await warm;
        const done = finished(e, n);
        const t0 = performance.now();
        await e.request('addJobs', { jobs: Array(n).fill({ argv: ['true'] }) });
        await done;
        return (n / (performance.now() - t0)) * 1000;
      }),
    ),
  );
  const direct = median(await repeat(runs, () => directSpawnRate('true', n, 2)));
  const ratio = lanes / direct;
  return [
    { what: '`true` as shell jobs, 2 workers', value: lanes, unit: 'jobs/s' },
    { what: '`true` spawned straight from Node, 2 at a time', value: direct, unit: 'runs/s' },
    { what: 'shell jobs against direct spawning', value: ratio * 100, unit: '%', target: '≥ 80 %', pass: ratio >= 0.8 },
  ];
}

export async function startLatency(samples: number): Promise<Figure[]> {
  const warm = await withEngine(async (e) => {
    const warmup = finished(e, 1);
    await e.request('addJob', { argv: ['true'] });
    await warmup;
    return repeat(samples, async () => {
      const done = finished(e, 1);
      const started = nextRunning(e);
      const t0 = performance.now();
      await e.request('addJob', { argv: ['true'] });
      const t = (await started) - t0;
      await done;
      return t;
    });
  });
  const cold = await withEngine(async (e) => {
    let i = 0;
    return repeat(samples, async () => {
      // A lane of its own each time, so no worker exists when the job arrives.
      const lane = `cold-${i++}`;
      await e.request('addLane', { name: lane, cap: 1 });
      const done = finished(e, 1);
      const started = nextRunning(e);
      const t0 = performance.now();
      await e.request('addJob', { lane, argv: ['true'] });
      const t = (await started) - t0;
      await done;
      return t;
    });
  });
  const bare = median(await repeat(samples, bareForkMs));
  const w = median(warm);
  const c = median(cold);
  return [
    { what: 'enqueue → start, idle warm worker', value: w, unit: 'ms', target: '≤ 20 ms', pass: w <= 20 },
    { what: 'bare Node fork, cold start to first message', value: bare, unit: 'ms' },
    { what: 'enqueue → start, no worker running', value: c, unit: 'ms', target: `≤ ${(bare + 30).toFixed(1)} ms (fork + 30)`, pass: c <= bare + 30 },
  ];
}

export async function sizerPass(lanes: number, queued: number, log: (s: string) => void): Promise<Figure[]> {
  return withEngine(async (e: Engine) => {
    const names = Array.from({ length: lanes }, (_, i) => `lane-${String(i).padStart(2, '0')}`);
    // Cap 0: the jobs stay queued, so the pass sees the full backlog.
    for (const name of names) await e.request('addLane', { name, cap: 0 });
    const t0 = performance.now();
    for (let i = 0; i < queued; i += 10_000) {
      const jobs = Array.from({ length: 10_000 }, (_, k) => ({ lane: names[(i + k) % lanes]!, argv: ['true'] }));
      await e.request('addJobs', { jobs });
      if (i % 200_000 === 0) log(`  queued ${i.toLocaleString('en-US')} of ${queued.toLocaleString('en-US')}`);
    }
    log(`  queued ${queued.toLocaleString('en-US')} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const internals = e as unknown as Internals;
    const times = await repeat(500, async () => {
      const s = performance.now();
      internals.fleet.lanesChanged();
      return performance.now() - s;
    });
    const publish = await repeat(20, async () => {
      const s = performance.now();
      internals.publisher.publish();
      return performance.now() - s;
    });
    const pass = median(times);
    return [
      { what: `one sizer pass, ${lanes} lanes × ${queued.toLocaleString('en-US')} queued`, value: pass, unit: 'ms', target: '≤ 5 ms', pass: pass <= 5 },
      { what: `lane status for all ${lanes} lanes (announced ≤ 10×/s)`, value: median(publish), unit: 'ms' },
    ];
  }, 8);
}

export async function idleCpu(seconds: number): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'lanes-idle-'));
  const measure = (dataDir: string) => {
    const out = execFileSync(process.execPath, [join(appRoot, 'dist/test/bench/idle-engine.js'), dataDir, String(seconds)], { encoding: 'utf8' });
    const r = JSON.parse(out) as { cpuMs: number; wallMs: number; timers: number; workers: number };
    return { ...r, percent: (r.cpuMs / r.wallMs) * 100 };
  };
  try {
    const engine = measure(dir);
    const bare = measure('-');
    return [
      { what: `engine CPU while idle over ${seconds} s (${engine.workers} workers)`, value: engine.percent, unit: '%', target: '≤ 0.1 %', pass: engine.percent <= 0.1 },
      { what: `a bare Node process measured the same way`, value: bare.percent, unit: '%' },
      { what: 'timers created while idle', value: engine.timers, unit: 'timers', target: '≤ 1 per second', pass: engine.timers <= seconds },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
