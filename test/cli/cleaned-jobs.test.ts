// Where cleaning meets dependencies and the commands that read a job, against a real `lanes
// daemon` and its SQLite file: a dependent of a failed job ends and stays ended, in words naming
// that job, however it is retried and whether that job is kept or cleaned; `add --after` a
// cleaned success runs; a cleaned job answers `wait`, `show`, `log`, `retry` and `restart` with
// what is kept of it and nothing more; `log --follow` of a job cleaned while it is followed ends
// as `wait` would.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Job } from '../../shared/model.js';
import { tempDataDir } from '../support/daemon.js';
import { daemonForFile } from '../support/daemon-suite.js';

describe('cleaned jobs and the jobs that run after them', () => {
  const t = daemonForFile();
  const work = tempDataDir('lanes-work-');
  afterAll(() => work.remove());

  async function add(...args: string[]): Promise<number> {
    const res = await t.daemon.cli('add', ...args);
    expect(res.stderr).toBe('');
    return Number(res.stdout);
  }
  const show = async (id: number) => JSON.parse((await t.daemon.cli('show', String(id), '--json')).stdout) as Job;
  const clean = async (...args: string[]) => expect((await t.daemon.cli('clean', ...args)).code).toBe(0);

  it('a dependent of a failed job ends, naming it; its retry is refused as `add --after` is, before and after that job is cleaned', async () => {
    expect((await t.daemon.cli('lane', 'add', 'later', '--cap', '1')).code).toBe(0);
    // It fails only once its dependent is queued (a job after one already failed is refused at add).
    const fail = join(work.dir, 'fail-now');
    const a = await add('--attempts', '1', '--', 'sh', '-c', `while [ ! -f ${fail} ]; do sleep 0.05; done; exit 1`);
    const b = await add('--lane', 'later', '--after', String(a), '--', 'touch', join(work.dir, 'never'));
    writeFileSync(fail, '');
    expect((await t.daemon.cli('wait', String(b))).code).toBe(1);
    expect(await show(b)).toMatchObject({ state: 'failed', error: `job ${a} failed`, startedAt: null });

    const asAdd = await t.daemon.cli('add', '--after', String(a), '--', 'true');
    const asRetry = await t.daemon.cli('retry', String(b));
    expect(asAdd.code).toBe(1);
    expect(asRetry.code).toBe(1);
    expect(asRetry.stderr).toBe(asAdd.stderr);
    expect(asRetry.stderr).toBe(`lanes: job ${a} failed, so a job after it would never run; retry it first (lanes retry ${a})\n`);
    expect((await t.daemon.cli('retry', '--failed', '--lane', 'later')).stdout).toMatch(/^queued 0 jobs again; 1 job left as it was/);

    // Its dependency is cleaned: the dependent, kept, still ends in words naming it — at once, not at some later pass.
    await clean('--lane', 'worker', '--state', 'failed');
    const wait = await t.daemon.cli('wait', String(b));
    expect([wait.code, wait.stdout]).toEqual([1, `job ${b}: did not run (job ${a} failed)\n`]);
    expect((await t.daemon.cli('show', String(b))).stdout).toContain(`after:    job ${a} (failed, since cleaned)`);
    const again = await t.daemon.cli('retry', String(b));
    expect([again.code, again.stderr]).toEqual([1, `lanes: job ${a} failed and has been cleaned, so a job after it would never run\n`]);
    expect((await t.daemon.cli('add', '--after', String(a), '--', 'true')).stderr).toBe(again.stderr);
    expect((await t.daemon.cli('restart', '--in-place', String(b))).stderr).toContain(again.stderr.replace(/^lanes: |\n$/g, ''));
    expect((await show(b)).state).toBe('failed');
  });

  it('`add --after` a job that succeeded and was cleaned runs at once', async () => {
    const a = await add('--', 'true');
    expect((await t.daemon.cli('wait', String(a))).code).toBe(0);
    await clean('--state', 'succeeded');
    const b = await add('--after', String(a), '--', 'true');
    expect((await t.daemon.cli('wait', String(b))).code).toBe(0);
    expect((await show(b)).after).toEqual([{ id: a, state: 'succeeded', cleanedAt: expect.any(Number) }]);
  });

  it('a cleaned job answers with what is kept of it: wait --json and show --json give its record and no field it does not know', async () => {
    const id = await add('--attempts', '1', '--', 'sh', '-c', 'echo gone; exit 4');
    expect((await t.daemon.cli('wait', String(id))).code).toBe(1);
    await clean();
    const known = ['cleanedAt', 'exitCode', 'finishedAt', 'id', 'lane', 'state'];
    const wait = await t.daemon.cli('wait', '--json', String(id));
    expect(wait.code).toBe(1);
    const [record] = JSON.parse(wait.stdout) as Record<string, unknown>[];
    expect(Object.keys(record!).sort()).toEqual(known);
    expect(record).toMatchObject({ id, lane: 'worker', state: 'failed', exitCode: 4, cleanedAt: expect.any(Number), finishedAt: expect.any(Number) });
    const shown = await t.daemon.cli('show', '--json', String(id));
    expect(shown.code).toBe(1);
    expect(JSON.parse(shown.stdout)).toEqual(record);
    // In words elsewhere, the same words each time, and exit 1.
    const words = new RegExp(`^lanes: job ${id} in lane worker failed \\(exit 4\\) at .+ and was cleaned at [^;]+`);
    for (const args of [['show'], ['log'], ['retry'], ['restart'], ['cancel']]) {
      const res = await t.daemon.cli(...args, String(id));
      expect(res.code, args[0]).toBe(1);
      expect(res.stderr, args[0]).toMatch(words);
    }
    expect((await t.daemon.cli('log', String(id))).stderr).toContain('its log went with it');
  });

  it('`log --follow` of a job cleaned while it is followed prints what it had and ends as `wait` would: 0 for a success, 1 for a failure', async () => {
    for (const [end, code] of [
      ['true', 0],
      ['false', 1],
    ] as const) {
      const flag = join(work.dir, `go-${end}`);
      const id = await add('--attempts', '1', '--', 'sh', '-c', `echo started; while [ ! -f ${flag} ]; do sleep 0.05; done; ${end}`);
      const follower = t.daemon.spawn('log', '--follow', String(id));
      await follower.line(/^started$/);
      // The follower is held still while its job ends and is cleaned, so it learns of both at once.
      follower.child.kill('SIGSTOP');
      writeFileSync(flag, '');
      await t.reaches(id, end === 'true' ? 'succeeded' : 'failed');
      await clean();
      follower.child.kill('SIGCONT');
      const done = await follower.done;
      expect(done.code, done.stderr).toBe(code);
      expect(done.stdout).toBe('started\n');
      expect(done.stderr).toContain(`job ${id} in lane worker`);
    }
  });
});
