// Figures taken inside an engine's own process (the engine opened here, in the benchmark's process,
// which does nothing else meanwhile): one sizer pass over a large backlog, and how long the event
// loop is held while a large job table is listed and while status is asked for under load.
// The event loop is watched with perf_hooks.monitorEventLoopDelay: its maximum is the longest
// stretch in which nothing else (a worker's message, a client's request) could be answered.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { openEngine, type Engine } from '../../electron/engine/index.js';
import type { RequestInput } from '../../shared/requests.js';
import { NOOP_WORKER } from './lanes-daemon.js';
import { repeat, repeatWithin, summarize, until, type Figure } from './stats.js';

const SECTION = 'Inside the engine';
/** The longest the drain under load is watched. */
const DRAIN_MS = 30_000;

/** Private parts of the engine a benchmark may time directly; absent if the engine changed shape. */
interface Internals {
  p?: { pass?: { run?(): unknown }; publisher?: { publish?(): void } };
}

async function withEngine<T>(fn: (e: Engine) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'lanes-bench-'));
  const engine = await openEngine({ dataDir: dir, cores: 8, tickMs: 60_000, log: () => {} });
  try {
    return await fn(engine);
  } finally {
    await engine.stop({ graceMs: 0 });
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The longest event-loop delay, in ms, while `fn` runs. */
async function longestBlock(fn: () => Promise<void>): Promise<number> {
  const h = monitorEventLoopDelay({ resolution: 5 });
  h.enable();
  await fn();
  h.disable();
  return h.max / 1e6;
}

const tick = () => new Promise((r) => setImmediate(r));

export function inProcessFigures(lanes: number, queued: number, log: (s: string) => void): Promise<Figure[]> {
  return withEngine(async (e) => {
    const names = Array.from({ length: lanes }, (_, i) => `lane-${String(i).padStart(2, '0')}`);
    // Cap 0: the jobs stay queued, so every pass and every listing sees the whole backlog.
    for (const name of names) await e.request('addLane', { name, cap: 0 });
    for (let i = 0; i < queued; i += 10_000) {
      await e.request('addJobs', { jobs: Array.from({ length: 10_000 }, (_, k) => ({ lane: names[(i + k) % lanes]!, argv: ['true'] })) });
      if (i % 200_000 === 0) log(`  queued ${i.toLocaleString('en-US')} of ${queued.toLocaleString('en-US')}`);
    }
    const backlog = `${lanes} lanes × ${queued.toLocaleString('en-US')} queued`;
    const figures: Figure[] = [];
    const internals = e as unknown as Internals;
    const parts = internals.p;
    if (parts?.pass?.run && parts.publisher?.publish) {
      const pass = parts.pass as { run(): unknown };
      const publisher = parts.publisher as { publish(): void };
      const timeOf = (fn: () => void) => async () => {
        const t = performance.now();
        fn();
        return performance.now() - t;
      };
      const passes = summarize(await repeatWithin(500, 15_000, timeOf(() => pass.run())));
      figures.push({ section: SECTION, what: `one sizer pass, ${backlog}`, unit: 'ms', lanes: passes, target: '≤ 5 ms', judge: (f) => f.lanes.median <= 5 });
      figures.push({ section: SECTION, what: `every lane's status built, ${backlog} (announced ≤ 10×/s)`, unit: 'ms', lanes: summarize(await repeatWithin(20, 10_000, timeOf(() => publisher.publish()))) });
    } else {
      log('  the engine no longer has its sizing pass and publisher where this looks (p.pass.run, p.publisher.publish): sizer pass not timed');
    }

    const pages: RequestInput<'listJobs'>[] = [{ limit: 1000 }, { lane: names[7]!, limit: 1000 }, { state: 'queued', limit: 1000 }, { lane: names[3]!, state: 'queued', limit: 1000, beforeId: Math.floor(queued / 2) }];
    const listing = await repeat(5, () =>
      longestBlock(async () => {
        for (const page of pages) {
          await e.request('listJobs', page);
          await tick();
        }
      }),
    );
    const list = summarize(listing);
    figures.push({ section: SECTION, what: `longest event-loop block listing pages of 1,000 jobs (newest, by lane, by state, deep), ${backlog}`, unit: 'ms', lanes: list, target: '≤ 50 ms', judge: (f) => f.lanes.median <= 50 });

    // Under load: two workers drain no-op jobs while status is asked for every 20 ms, for at most
    // DRAIN_MS: with a large backlog each finished job may cost the engine more than it should,
    // and how far it got is part of the figure.
    await e.request('addLane', { name: 'busy', cap: 2, workerCommand: NOOP_WORKER });
    const job = { lane: 'busy', payload: {} };
    const finished = () => e.status().lanes.find((l) => l.name === 'busy')!.succeeded;
    await e.request('addJobs', { jobs: Array(20).fill(job) });
    await until(() => finished() >= 20, 'warm-up of the busy lane');
    const n = 10_000;
    // Queued before the watch starts: a batch this size is one durable write, timed elsewhere.
    await e.request('addJobs', { jobs: Array(n).fill(job) });
    const statusTimes: number[] = [];
    const t0 = performance.now();
    const block = await longestBlock(async () => {
      while (finished() < 20 + n && performance.now() - t0 < DRAIN_MS) {
        const t = performance.now();
        await e.request('status', {});
        statusTimes.push(performance.now() - t);
        await new Promise((r) => setTimeout(r, 20));
      }
    });
    const drained = finished() - 20;
    const took = (performance.now() - t0) / 1000;
    const times = summarize(statusTimes);
    figures.push({
      section: SECTION,
      what: `longest event-loop block while 2 workers drain no-op jobs and status is read every 20 ms, ${backlog}`,
      unit: 'ms',
      lanes: summarize([block]),
      target: '≤ 50 ms',
      judge: (f) => f.lanes.median <= 50,
      note: `${drained.toLocaleString('en-US')} jobs drained in ${took.toFixed(0)} s (${Math.round(drained / took)} jobs/s); one status call: median ${times.median.toFixed(1)} ms, longest ${times.max.toFixed(1)} ms`,
    });
    return figures;
  });
}
