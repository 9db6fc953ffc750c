// `npm run bench` (after the build): every figure Lanes promises, each measured beside a peer
// where one exists (BullMQ on a redis-server started here, a bare Node spawn or fork, task-spooler,
// bare `node -e 0`), alternately, and reported as medians with ranges and pair-by-pair
// comparisons. Writes docs/benchmarks.md with the machine, its load and the date; exits 1 when a
// target is missed. `--quick`: fewer and smaller rounds, a smoke check of a few minutes.
// `--only a,b`: only those steps (names below), for working on one figure; the file is not written.
// `--runs N`: N full runs one after another, each figure given as the median of the runs' medians
// with their range, and each run's load; targets are judged on that median.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import si from 'systeminformation';
import { appRoot } from '../../electron/paths/app-files.js';
import { BullPeer } from './bullmq-peer.js';
import { cliFigures } from './cli-calls.js';
import { coldBreakdownFigures } from './cold-breakdown.js';
import { startFigures } from './cold-start.js';
import { enqueueFigures } from './enqueue.js';
import { daemonIdleFigures, idleFigures } from './idle.js';
import { inProcessFigures } from './in-process.js';
import { machineMeasures } from './machine.js';
import { sizerPassMeasures } from './sizer-pass.js';
import { manyLaneFigures } from './many-lanes.js';
import { startRedis } from './redis.js';
import { sharedLaneFigures } from './shared-lane.js';
import { sharedDesignFigures } from './shared-design.js';
import { soakFigures, soakSize } from './soak.js';
import { unreadClientFigures } from './unread-clients.js';
import { markdownTables, terminalLines } from './report.js';
import { acrossRuns, judgeAll, type Figure } from './stats.js';
import { noopFigures, shellFigures } from './throughput.js';
import { paceResumeFigures } from './pace-replay.js';
import { progressFloodFigures } from './progress-flood.js';
import { blockedFigures } from './blocked.js';
import { realBatchFigures } from './real-batch.js';
import { restartFigures } from './restart.js';

const quick = process.argv.includes('--quick');
const onlyArg = process.argv.indexOf('--only');
const only = onlyArg > 0 ? new Set((process.argv[onlyArg + 1] ?? '').split(',')) : null;
const runsArg = process.argv.indexOf('--runs');
const runs = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 1;
if (!Number.isInteger(runs) || runs < 1 || runs > 20) {
  process.stderr.write('bench: --runs takes a whole number from 1 to 20\n');
  process.exit(2);
}
const log = (s: string) => process.stderr.write(s + '\n');

const size = quick
  ? { pairs: 2, noop: 3_000, shell: 200, enqueue: { batches: 10, fromLines: 2_000, single: 200 }, cli: 8, starts: 5, lanes: [1, 50, 4], queued: 100_000, idle: [1, 10], batch: 1_000 }
  : { pairs: 3, noop: 20_000, shell: 600, enqueue: { batches: 50, fromLines: 10_000, single: 1_000 }, cli: 20, starts: 25, lanes: [6, 200, 5], queued: 1_000_000, idle: [3, 60], batch: 1_000 };

const redis = await startRedis();
const bull = new BullPeer(redis.port);
// Durable adds are compared with a Redis that syncs each write before it answers.
const syncedRedis = await startRedis({ appendonly: true });
const synced = new BullPeer(syncedRedis.port);
const startedAt = new Date();

const steps: [string, string, () => Promise<Figure[]> | Figure[]][] = [
  ['noop', 'no-op jobs against BullMQ', () => noopFigures(size.pairs, size.noop, bull)],
  ['blocked', 'no-op jobs with and without 100,000 blocked', () => blockedFigures(size.pairs, size.noop, 100_000)],
  ['shell', '`true` shell jobs against spawn and tsp', () => shellFigures(size.pairs, size.shell)],
  ['batch', 'a real batch against xargs, parallel and tsp', () => realBatchFigures(size.pairs, size.batch)],
  ['enqueue', 'putting work in', () => enqueueFigures(size.pairs, size.enqueue, bull, synced)],
  ['restart', 'restarting many jobs against adding as many', () => restartFigures(size.pairs, 10_000)],
  ['cli', 'CLI calls against bare node', () => cliFigures(size.cli)],
  ['start', 'enqueue → first instruction', () => startFigures(size.starts)],
  ['breakdown', 'a cold start, step by step', () => coldBreakdownFigures(size.starts)],
  ['lanes', 'many lanes under a ceiling of 2', () => manyLaneFigures(size.lanes[0]!, size.lanes[1]!, size.lanes[2]!)],
  ['inside', 'sizer pass and event-loop blocks', () => inProcessFigures(50, size.queued, log)],
  ['idle', 'the idle engine', async () => [...(await daemonIdleFigures(size.idle[0]!, size.idle[1]!)), ...idleFigures(size.idle[0]!, size.idle[1]!)]],
  ['machine', 'what watching the machine costs', async () => [...sizerPassMeasures(quick ? 50 : 200), ...(await machineMeasures(quick ? 10 : 40))]],
  ['shared', 'a shared lane on Redis against BullMQ', () => sharedLaneFigures(size.pairs, size.noop, size.enqueue.batches, bull)],
  ['design', 'a shared lane whose worker processes speak to Redis themselves (not built)', () => sharedDesignFigures(size.pairs, size.noop, bull.port)],
  ['unread', 'event-stream clients that never read', () => unreadClientFigures(quick ? 5_000 : 30_000)],
  ['pace', 'the outlook after a resume (pure replay)', () => paceResumeFigures()],
  ['progress', 'a job reporting progress 10,000 times a second', () => progressFloodFigures(quick ? 4 : 10)],
  ['soak', 'a soak with retention (LANES_BENCH_SOAK=PAYLOAD,SHELL for other sizes)', () => soakFigures(soakSize(quick), log)],
];

const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(' / ');
const runLoads: string[] = [];
const perRun: Figure[][] = [];
try {
  for (let r = 1; r <= runs; r++) {
    const loadAtStart = loadavg();
    const figures: Figure[] = [];
    if (runs > 1) log(`\nrun ${r} of ${runs}`);
    for (const [name, what, run] of steps) {
      if (only && !only.has(name)) continue;
      log(`measuring ${what} …`);
      const t0 = performance.now();
      const got = judgeAll(await run());
      figures.push(...got);
      log(terminalLines(got));
      log(`  (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
    }
    perRun.push(figures);
    runLoads.push(`run ${r}: ${load(loadAtStart)} at the start, ${load(loadavg())} at the end`);
  }
} finally {
  await bull.close();
  await synced.close();
  await redis.remove();
  await syncedRedis.remove();
}
const figures = runs > 1 ? acrossRuns(perRun) : perRun[0]!;
if (runs > 1) log(`\nacross ${runs} runs (median of the runs' medians, range of the runs):\n${terminalLines(figures)}`);

const [cpu, mem, os] = await Promise.all([si.cpu(), si.mem(), si.osInfo()]);
const sqlite = (new Database(':memory:').prepare('SELECT sqlite_version() AS v').get() as { v: string }).v;
const version = (pkg: string) => (JSON.parse(readFileSync(join(appRoot, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;
const redisVersion = /v=(\S+)/.exec(execFileSync('redis-server', ['--version'], { encoding: 'utf8' }))?.[1] ?? '?';
const machine = [
  `${cpu.manufacturer} ${cpu.brand}, ${cpu.cores} logical cores, ${(mem.total / 2 ** 30).toFixed(0)} GiB, ${os.distro} ${os.release}`,
  `Node ${process.versions.node}, SQLite ${sqlite}; peers: BullMQ ${version('bullmq')} with ioredis ${version('ioredis')} on redis-server ${redisVersion}`,
  `Load average (1 / 5 / 15 min), ${runLoads.join('; ')}`,
];

const doc = [
  '# Benchmarks',
  '',
  `Measured ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC by \`npm run bench${runs > 1 ? ` -- --runs ${runs}` : ''}\`${quick ? ' (quick mode: fewer, smaller rounds)' : ''}: ${runs === 1 ? 'one full run' : `${runs} full runs`}.`,
  ...machine.map((line) => `${line}.  `),
  '',
  runs > 1
    ? `Each value is the median of the ${runs} runs' medians, with the lowest and highest run in parentheses. Within a run, where a peer was measured, its run`
    : 'One run only: each value is the median of its rounds with the range in parentheses; a target is judged only on the median of three or more full runs (`--runs 3`). Where a peer was measured, its run',
  'alternated with Lanes’ (Lanes, peer, Lanes, peer …), and the last column compares each pair —',
  '“× 1.1” is Lanes ÷ peer, “+12 ms” is Lanes − peer — so a busy moment of this shared machine',
  'weighs on both sides of the same pair. An absolute figure alone is not evidence here; the',
  'comparison is. Targets are judged on the median. How each figure is taken:',
  '[benchmarks-method.md](benchmarks-method.md). The window with 100,000 queued jobs is measured',
  'separately: [benchmarks-window.md](benchmarks-window.md).',
  '',
  markdownTables(figures),
  '',
].join('\n');

if (only) log('\n(--only: docs/benchmarks.md not written)');
else {
  writeFileSync(join(appRoot, 'docs', 'benchmarks.md'), doc);
  log(`\nwrote docs/benchmarks.md`);
}
const missed = figures.filter((f) => f.met === false);
if (missed.length > 0) log(`\ntargets missed: ${missed.map((f) => f.what).join('; ')}`);
process.exit(missed.length > 0 ? 1 : 0);
