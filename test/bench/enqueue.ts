// Putting work in: batched (the API's addJobs, `lanes add --from`) against BullMQ's addBulk, and
// one job per HTTP request, in a row and from 8 clients at once, against one BullMQ add per call.
// Each pair of runs shares one daemon (a lane at cap 0, so nothing runs) and one Redis.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BullPeer } from './bullmq-peer.js';
import { CLI, withDaemon, type Daemon } from './lanes-daemon.js';
import { compared, perSecond, type Figure } from './stats.js';

const SECTION = 'Putting work in';
const LANE = 'parked';

async function addJobsRate(d: Daemon, batches: number, size: number): Promise<number> {
  const jobs = Array.from({ length: size }, () => ({ lane: LANE, argv: ['true'] }));
  const t0 = performance.now();
  for (let i = 0; i < batches; i++) await d.api('addJobs', { jobs });
  return perSecond(batches * size, performance.now() - t0);
}

/** `lanes add --from FILE` of `n` lines, the whole CLI call timed (its start-up included). */
function addFromRate(d: Daemon, n: number): number {
  const dir = mkdtempSync(join(tmpdir(), 'lanes-bench-from-'));
  try {
    const file = join(dir, 'jobs.txt');
    writeFileSync(file, Array.from({ length: n }, (_, i) => `true ${i}`).join('\n') + '\n');
    const t0 = performance.now();
    execFileSync(process.execPath, [CLI, '--data-dir', d.dataDir, 'add', '--lane', LANE, '--from', file], { stdio: 'ignore' });
    return perSecond(n, performance.now() - t0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * One add per request from `clients` callers at once. Both sides are warmed first with as many
 * untimed adds: Redis is a long-running server that is always warm, while each pair here starts
 * a fresh daemon whose request path V8 has not yet compiled.
 */
async function addOneRate(d: Daemon, n: number, clients: number): Promise<number> {
  await addOne(d, n, clients);
  const t0 = performance.now();
  await addOne(d, n, clients);
  return perSecond(n, performance.now() - t0);
}

async function addOne(d: Daemon, n: number, clients: number): Promise<void> {
  let left = n;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (left-- > 0) await d.api('addJob', { lane: LANE, argv: ['true'] });
    }),
  );
}

export interface EnqueueSizes {
  batches: number;
  fromLines: number;
  single: number;
}

export async function enqueueFigures(pairs: number, sizes: EnqueueSizes, bull: BullPeer, synced: BullPeer): Promise<Figure[]> {
  const keys = ['batch', 'from', 'seq', 'conc'] as const;
  const s = Object.fromEntries(keys.map((k) => [k, { lanes: [] as number[], peer: [] as number[], synced: [] as number[] }])) as Record<
    (typeof keys)[number],
    { lanes: number[]; peer: number[]; synced: number[] }
  >;
  for (let i = 0; i < pairs; i++) {
    await withDaemon(async (d) => {
      await d.api('addLane', { name: LANE, cap: 0 });
      // Alternating within the pair: Lanes, then BullMQ, figure by figure.
      s.batch.lanes.push(await addJobsRate(d, sizes.batches, 1000));
      s.batch.peer.push(await bull.addBulk(sizes.batches, 1000));
      s.from.lanes.push(addFromRate(d, sizes.fromLines));
      s.from.peer.push(await bull.addBulk(1, sizes.fromLines));
      s.seq.lanes.push(await addOneRate(d, sizes.single, 1));
      s.seq.synced.push(await synced.addSingle(sizes.single, 1));
      s.seq.peer.push(await bull.addSingle(sizes.single, 1));
      s.conc.lanes.push(await addOneRate(d, sizes.single * 2, 8));
      s.conc.synced.push(await synced.addSingle(sizes.single * 2, 8));
      s.conc.peer.push(await bull.addSingle(sizes.single * 2, 8));
    });
  }
  // Like for like: every Lanes add is on disk before it is answered, so its targets divide by
  // BullMQ on a Redis that syncs each write before answering (appendfsync always), with the same
  // number of callers; BullMQ on the default, in-memory Redis is shown beside, without a target.
  // BullMQ's 8 callers share one connection, which ioredis pipelines, as BullMQ is used.
  const durable = (what: string, series: { lanes: number[]; synced: number[] }, peer: string) => {
    const f = compared({ section: SECTION, what, unit: 'jobs/s', target: 'ratio ≥ 1' }, { lanes: series.lanes, peer: series.synced }, peer);
    f.judge = (g) => g.compared!.value.median >= 1;
    return f;
  };
  return [
    compared({ section: SECTION, what: `API addJobs, ${sizes.batches} batches of 1,000`, unit: 'jobs/s' }, s.batch, 'BullMQ addBulk, same batches'),
    compared(
      { section: SECTION, what: `\`lanes add --from\` a file of ${sizes.fromLines.toLocaleString('en-US')} command lines (the whole CLI call)`, unit: 'jobs/s' },
      s.from,
      `BullMQ addBulk of ${sizes.fromLines.toLocaleString('en-US')}`,
    ),
    durable('one job per HTTP request, one after another, each on disk before its answer', s.seq, 'BullMQ, one add per call, one after another, Redis with appendfsync always'),
    compared({ section: SECTION, what: 'one job per HTTP request, one after another', unit: 'jobs/s' }, s.seq, 'BullMQ, one add per call, one after another, default Redis (nothing on disk)'),
    durable('one job per HTTP request, 8 clients at once, each on disk before its answer', s.conc, 'BullMQ, 8 callers at once, Redis with appendfsync always'),
    compared({ section: SECTION, what: 'one job per HTTP request, 8 clients at once', unit: 'jobs/s' }, s.conc, 'BullMQ, 8 callers at once, default Redis (nothing on disk)'),
  ];
}
