// The fault run of worker-kills.ts, small enough for the suite, with cgroups off (the process-group
// fallback): workers are killed with SIGKILL hundreds of times while they run shell jobs that
// write their own start, tick and end lines outside Lanes. A run is over when its processes are
// gone, so no line of a run may come after the engine recorded its job finished (or failed, out
// of attempts, because its worker died); nothing acknowledged is lost; nothing is left behind.
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../electron/engine/index.js';
import { startEngine, tempDir } from '../support/engine.js';
import { analyse, faultJob, processesWith, type Outcome } from './records.js';

const KILLS = 200;
/** More jobs are added while fewer than KILLS kills are done, up to this many. */
const MAX_JOBS = 2_000;
const TERMINAL = new Set(['succeeded', 'failed', 'cancelled']);
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

const childrenOf = (pid: number): number[] => {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
};

/**
 * This process's children that run the worker runtime (the engine here is in-process) and have a
 * job running: a worker killed before its first job counts as one that cannot start, and the
 * engine rightly backs off from those.
 */
function busyWorkers(): number[] {
  return childrenOf(process.pid).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('worker') && childrenOf(pid).length > 0;
    } catch {
      return false;
    }
  });
}

describe.runIf(process.platform === 'linux')('worker kills with cgroups off', () => {
  const tmp = tempDir('lanes-fault-');
  let engine: Engine | undefined;
  afterAll(async () => {
    await engine?.stop({ graceMs: 0 });
    for (const pid of await processesWith(`REC=${join(tmp.dir, 'records.txt')}`)) process.kill(pid, 'SIGKILL');
    tmp.cleanup();
  });

  it('no run outlives its recorded finish, none is lost, nothing is left', async () => {
    const rec = join(tmp.dir, 'records.txt');
    const locks = join(tmp.dir, 'locks');
    mkdirSync(locks);
    appendFileSync(rec, '');
    engine = await startEngine(join(tmp.dir, 'data'), { cores: 8, tickMs: 100, cgroups: false });
    const e = engine;
    await e.request('setCap', { lane: 'worker', cap: 6 });
    // Two attempts: a job whose worker is killed twice is recorded failed at once, the moment
    // a late process of it would show.
    const job = { shell: faultJob(), env: { REC: rec, LOCKS: locks }, cwd: tmp.dir, maxAttempts: 2 };
    const ids: number[] = [];
    const add = async (n: number) => ids.push(...(await e.request('addJobs', { jobs: Array.from({ length: n }, () => job) })).ids);
    const unfinished = async () => {
      const lane = (await e.request('status', {})).lanes.find((l) => l.name === 'worker')!;
      return lane.waiting + lane.delayed + lane.running;
    };
    await add(200);

    // A kill every 5–25 ms, of a worker under a job; while the queue runs low before enough kills, more work.
    let kills = 0;
    const t0 = Date.now();
    const killDeadline = Date.now() + 45_000;
    while (kills < KILLS && Date.now() < killDeadline) {
      if ((await unfinished()) < 20 && ids.length < MAX_JOBS) await add(100);
      const alive = busyWorkers();
      const victim = alive[Math.floor(Math.random() * alive.length)];
      if (victim !== undefined) {
        try {
          process.kill(victim, 'SIGKILL');
          kills++;
        } catch {
          // Gone already.
        }
      }
      await pause(5 + Math.random() * 20);
    }
    const killedMs = Date.now() - t0;
    const drainDeadline = Date.now() + 30_000;
    while ((await unfinished()) > 0 && Date.now() < drainDeadline) await pause(100);

    const drainedMs = Date.now() - t0;
    const rows: Outcome[] = await Promise.all(ids.map(async (id) => {
      const j = await e.request('job', { id });
      return { id, state: j.state, finishedAt: j.finishedAt, attempts: j.attempts };
    }));
    // What a run left must be gone soon after the work is: a process has no event to wait on.
    let leftover = await processesWith(`REC=${rec}`);
    for (const until = Date.now() + 10_000; leftover.length > 0 && Date.now() < until; leftover = await processesWith(`REC=${rec}`)) await pause(100);

    const report = analyse(readFileSync(rec, 'utf8'), rows, TERMINAL);
    const summary = { jobs: ids.length, kills, killedMs, drainedMs, ...report.counts, leftover: leftover.length };
    console.info(`fault run, cgroups off: ${JSON.stringify(summary)}`);
    // A loaded machine restarts workers slowly; the kills are bounded in time, and must be hundreds still.
    expect(kills, 'kills done').toBeGreaterThanOrEqual(KILLS / 2);
    expect({ lost: report.counts.lost, late: report.counts.runsAfterRecordedFinish, overlapping: report.counts.overlappingRuns, leftover: leftover.length }, report.examples.join('\n')).toEqual({
      lost: 0,
      late: 0,
      overlapping: 0,
      leftover: 0,
    });
    // The kills did fail some jobs out of attempts: the check above had something to check.
    expect(report.counts.failed).toBeGreaterThan(0);
  }, 120_000);
});
