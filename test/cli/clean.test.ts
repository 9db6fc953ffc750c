// Finished work leaves: `lanes clean` removes exactly the finished jobs its filters name, with
// their logs, and leaves queued and running jobs alone; a daemon with a short LANES_KEEP removes
// finished jobs and their logs by itself, and `lanes wait` on one of them still says how it ended.
// Against real `lanes daemon` processes; every wait is for an event or a printed answer.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobPage, JobSummary } from '../../shared/model.js';
import { startDaemon, tempDataDir, type TestDaemon } from '../support/daemon.js';
import { daemonForFile } from '../support/daemon-suite.js';

/** Every log file under logs/, as `<shard>/<name>`. */
function logFiles(dataDir: string): string[] {
  const dir = join(dataDir, 'logs');
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .flatMap((d) => readdirSync(join(dir, d.name)).map((f) => `${d.name}/${f}`));
}
const idsOf = (files: string[]) => new Set(files.map((f) => Number(/\/(\d+)\./.exec(f)?.[1])));

describe('lanes clean', () => {
  const t = daemonForFile();
  const ids: Record<string, Record<'succeeded' | 'failed' | 'cancelled', number>> = {};
  let running = 0;
  let queued = 0;

  async function add(lane: string, ...cmd: string[]): Promise<number> {
    const res = await t.daemon.cli('add', '--lane', lane, '--attempts', '1', '--', ...cmd);
    expect(res.stderr).toBe('');
    return Number(res.stdout);
  }

  beforeAll(async () => {
    for (const lane of ['a', 'b']) expect((await t.daemon.cli('lane', 'add', lane, '--cap', '1')).code).toBe(0);
    for (const lane of ['a', 'b']) {
      const succeeded = await add(lane, 'sh', '-c', `echo ok-${lane}`);
      const failed = await add(lane, 'sh', '-c', `echo bad-${lane} >&2; exit 3`);
      await t.reaches(succeeded, 'succeeded');
      await t.reaches(failed, 'failed');
      const cancelled = await add(lane, 'sleep', '60');
      await t.reaches(cancelled, 'running');
      expect((await t.daemon.cli('cancel', String(cancelled))).code).toBe(0);
      await t.reaches(cancelled, 'cancelled');
      ids[lane] = { succeeded, failed, cancelled };
    }
    // Lane a's one worker is busy with a long job; the job after it waits.
    running = await add('a', 'sh', '-c', 'echo still-running; sleep 60');
    await t.reaches(running, 'running');
    queued = await add('a', 'echo', 'later');
  });

  const states = async (lane: string) => {
    const page = JSON.parse((await t.daemon.cli('jobs', '--lane', lane, '--json')).stdout) as JobPage;
    return new Map(page.jobs.map((j: JobSummary) => [j.id, j.state]));
  };

  it('removes exactly the failed jobs of one lane, with their logs, and prints the count', async () => {
    const before = idsOf(logFiles(t.dir));
    expect(before.has(ids.a!.failed)).toBe(true);
    const res = await t.daemon.cli('clean', '--lane', 'a', '--state', 'failed');
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('removed 1 finished job\n');
    const left = await states('a');
    expect(left.has(ids.a!.failed)).toBe(false);
    expect(left.get(ids.a!.succeeded)).toBe('succeeded');
    expect(left.get(ids.a!.cancelled)).toBe('cancelled');
    expect(left.get(running)).toBe('running');
    expect(left.get(queued)).toBe('queued');
    expect((await states('b')).get(ids.b!.failed)).toBe('failed');
    const after = idsOf(logFiles(t.dir));
    expect(after.has(ids.a!.failed)).toBe(false);
    expect(after.has(ids.b!.failed)).toBe(true);
    expect(after.has(running)).toBe(true);
  });

  it('removes one state across lanes, then a lane of every state, never what is unfinished', async () => {
    const byState = JSON.parse((await t.daemon.cli('clean', '--state', 'cancelled', '--json')).stdout) as { removed: number; byState: Record<string, number> };
    expect(byState).toEqual({ removed: 2, byState: { succeeded: 0, failed: 0, cancelled: 2 } });
    expect((await states('a')).has(ids.a!.cancelled)).toBe(false);
    expect((await states('b')).has(ids.b!.cancelled)).toBe(false);

    const res = await t.daemon.cli('clean', '--lane', 'b');
    expect(res.stdout).toBe('removed 2 finished jobs (1 succeeded, 1 failed)\n');
    expect((await states('b')).size).toBe(0);
    const a = await states('a');
    expect([...a.values()].sort()).toEqual(['queued', 'running', 'succeeded']);
  });

  it('keeps jobs that finished more recently than --older-than', async () => {
    const res = await t.daemon.cli('clean', '--older-than', '1h', '--json');
    expect(JSON.parse(res.stdout)).toMatchObject({ removed: 0 });
    expect((await states('a')).get(ids.a!.succeeded)).toBe('succeeded');
  });

  it('removes the succeeded jobs of a lane, and nothing when none is left to remove', async () => {
    const res = await t.daemon.cli('clean', '--lane', 'a', '--state', 'succeeded');
    expect(res.stdout).toBe('removed 1 finished job\n');
    expect([...(await states('a')).values()].sort()).toEqual(['queued', 'running']);
    expect((await t.daemon.cli('clean')).stdout).toBe('removed 0 finished jobs\n');
    expect((await states('a')).get(running)).toBe('running');
  });

  it('answers for a cleaned job: wait by its end, show and log in words', async () => {
    const cleaned = ids.a!.failed;
    const wait = await t.daemon.cli('wait', String(ids.b!.succeeded));
    expect(wait.code).toBe(0);
    expect(wait.stdout).toBe(`job ${ids.b!.succeeded}: succeeded\n`);
    expect((await t.daemon.cli('wait', String(cleaned))).code).toBe(1);
    const show = await t.daemon.cli('show', String(cleaned));
    expect(show.code).toBe(1);
    expect(show.stderr).toMatch(new RegExp(`^lanes: job ${cleaned} in lane a failed \\(exit 3\\) at .+ and was cleaned at `));
    const log = await t.daemon.cli('log', String(cleaned));
    expect(log.stderr).toContain('its log went with it');
    expect((await t.daemon.cli('show', '999999')).stderr).toContain('there is no job 999999');
  });

  it('refuses an unknown lane and a bad span, changing nothing', async () => {
    const lane = await t.daemon.cli('clean', '--lane', 'nope');
    expect(lane.code).toBe(1);
    expect(lane.stderr).toContain('there is no lane named "nope"');
    // A typo gets the lane it most likely meant.
    const typo = await t.daemon.cli('clean', '--lane', 'wroker');
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain('there is no lane named "wroker" — did you mean "worker"?');
    const span = await t.daemon.cli('clean', '--older-than', 'soon');
    expect(span.code).toBe(2);
    expect((await states('a')).get(queued)).toBe('queued');
  });
});

describe('LANES_KEEP', () => {
  const tmp = tempDataDir();
  let daemon: TestDaemon;
  beforeAll(async () => {
    daemon = await startDaemon({ dataDir: tmp.dir, env: { LANES_KEEP: '2s' } });
  });
  afterAll(async () => {
    expect(await daemon?.stop()).toBe(0);
    tmp.remove();
  });

  it('removes finished jobs and their logs by itself, and wait still says how they ended', async () => {
    const jobs = Array.from({ length: 200 }, (_, i) => ({ shell: `echo job-${i}` }));
    const { ids } = await daemon.api('addJobs', { jobs });
    expect((await daemon.cli('wait', ...ids.slice(0, 50).map(String))).code).toBe(0);
    await daemon.cli('wait', ...ids.map(String));
    // One file per job that wrote to one stream, while it is kept.
    const kept = logFiles(tmp.dir).filter((f) => ids.includes(Number(/\/(\d+)\./.exec(f)?.[1])));
    expect(kept.length).toBeLessThanOrEqual(ids.length);
    await expect.poll(async () => (JSON.parse((await daemon.cli('jobs', '--json')).stdout) as JobPage).jobs.length, { timeout: 60_000, interval: 500 }).toBe(0);
    await expect.poll(() => logFiles(tmp.dir).length, { timeout: 30_000, interval: 500 }).toBe(0);
    const wait = await daemon.cli('wait', String(ids[7]));
    expect(wait.code).toBe(0);
    expect(wait.stdout).toBe(`job ${ids[7]}: succeeded\n`);
  });

  it('refuses a LANES_KEEP it cannot read, in words', async () => {
    const bad = tempDataDir();
    try {
      await expect(startDaemon({ dataDir: bad.dir, env: { LANES_KEEP: 'forever' } })).rejects.toThrow(/LANES_KEEP/);
    } finally {
      bad.remove();
    }
  });
});
