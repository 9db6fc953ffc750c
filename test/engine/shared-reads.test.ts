// What a busy shared lane costs Redis in reads of BullMQ's event stream, counted by the real
// redis-server itself (INFO commandstats). Read per event, as BullMQ's QueueEvents does alone, a
// drain costs about one XREAD per job (1.06 measured) on top of the job's own calls; read in
// batches (remote.ts), at most one per EVENTS_BATCH_MS while events come. The bound is a count:
// a few reads per hundred jobs, plus one per batch interval the drain lasted, so a slow, loaded
// machine only loosens it, and a return to per-event reads exceeds it at any drain faster than
// about ten jobs a second.
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { EVENTS_BATCH_MS } from '../../electron/engine/shared-lanes/remote.js';
import { engineEachTest, jobsFinished, until } from '../support/engine.js';
import { payloads, quickLane, ran } from '../support/quick-lane.js';
import { redisForFile } from '../support/redis-each.js';

const db = redisForFile();
const t = engineEachTest({ cores: 3 });

const JOBS = 600;

/** Calls of each stream-reading command since the last CONFIG RESETSTAT. */
async function streamReads(): Promise<number> {
  const stats = await db.admin.info('commandstats');
  let calls = 0;
  for (const m of stats.matchAll(/^cmdstat_(xread|xreadgroup):calls=(\d+)/gm)) calls += Number(m[2]);
  return calls;
}

describe('a shared lane’s event stream', () => {
  it(`is read in batches: ${JOBS} jobs drained cost a few stream reads per hundred jobs, not one per job`, async () => {
    await t.engine.request('addLane', { name: 'quick', cap: 0, workerCommand: quickLane(t.dir), queue: { redis: db.redis.url } });
    const { ids } = await t.engine.request('addJobs', { jobs: payloads(0, JOBS) });
    const lane = () => t.engine.status().lanes.find((l) => l.name === 'quick')!;
    await until(t.engine, () => lane().waiting === JOBS, 30_000, 'the shared backlog seen');
    // Counted from here: the drain alone, not the adds' own events read while the lane was held.
    await db.admin.config('RESETSTAT');
    const started = performance.now();
    await t.engine.request('setCap', { lane: 'quick', cap: 2 });
    const jobs = await jobsFinished(t.engine, ids, 240_000);
    const reads = await streamReads();
    const intervals = Math.ceil((performance.now() - started) / EVENTS_BATCH_MS);
    expect(jobs.filter((j) => j.state !== 'succeeded')).toEqual([]);
    expect(ran(t.dir)).toHaveLength(JOBS);
    // Read at all: a count of 0 would mean the stream (and what wakes idle workers) went unheard.
    expect(reads).toBeGreaterThan(0);
    expect(reads, `${reads} stream reads for ${JOBS} jobs over ${intervals} batch intervals`).toBeLessThanOrEqual(JOBS / 20 + intervals);
  }, 300_000);
});
