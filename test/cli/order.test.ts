// `lanes add --after/--delay/--at/--priority/--label`, `lanes edit`, `lanes restart`, and what
// `lanes jobs`, `lanes show` and `lanes status` say of them, against a real `lanes daemon`.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Job, JobPage, Status } from '../../shared/model.js';
import { atTime } from '../../electron/cli/ordering.js';
import { tempDataDir } from '../support/daemon.js';
import { daemonForFile } from '../support/daemon-suite.js';

describe('lanes add --after / --delay / --priority / --label, edit, restart', () => {
  const t = daemonForFile();
  const work = tempDataDir('lanes-work-');
  afterAll(() => work.remove());

  async function add(...args: string[]): Promise<number> {
    const res = await t.daemon.cli('add', ...args);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    return Number(res.stdout);
  }
  const show = async (id: number) => JSON.parse((await t.daemon.cli('show', String(id), '--json')).stdout) as Job;

  it('b=$(lanes add --after $a -- date) starts only after a succeeded; with a failing a, b fails naming a and never runs', async () => {
    const a = await add('--', 'sleep', '1');
    const b = await add('--after', String(a), '--', 'date');
    expect((await t.daemon.cli('wait', String(a), String(b))).code).toBe(0);
    const [ja, jb] = [await show(a), await show(b)];
    expect(jb.startedAt!).toBeGreaterThanOrEqual(ja.finishedAt!);
    // `lanes show` links the two.
    expect((await t.daemon.cli('show', String(b))).stdout).toContain(`after:    job ${a} (succeeded) sleep 1`);
    expect((await t.daemon.cli('show', String(a))).stdout).toContain(`then:     job ${b} (succeeded) date waits for it`);

    const f = await add('--', 'false');
    const g = await add('--after', String(f), '--', 'touch', join(work.dir, 'never'));
    expect((await t.daemon.cli('wait', String(g))).code).toBe(1);
    expect(await show(g)).toMatchObject({ state: 'failed', error: `job ${f} failed`, attempts: 0, startedAt: null });
    const unknown = await t.daemon.cli('add', '--after', '99999', '--', 'true');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('there is no job 99999 to run after');
  });

  it('--from FILE --after ID applies to every line, and status shows the waiting jobs apart', async () => {
    await t.daemon.cli('cap', 'worker', '3');
    // Runs until the test says go, so the twelve wait as long as the test looks at them.
    const first = await add('--cwd', work.dir, '--', 'while [ ! -f go ]; do sleep 0.1; done');
    const file = join(work.dir, 'lines');
    writeFileSync(file, Array.from({ length: 12 }, (_, i) => `echo ${i}`).join('\n'));
    const res = await t.daemon.cli('add', '--from', file, '--after', String(first), '--delay', '1s');
    const ids = res.stdout.trim().split('\n').map(Number);
    expect(ids).toHaveLength(12);
    expect((await show(ids[11]!)).after!.map((l) => l.id)).toEqual([first]);
    const status = JSON.parse((await t.daemon.cli('status', '--json')).stdout) as Status;
    expect(status.lanes.find((l) => l.name === 'worker')!.waitingForJobs).toBe(12);
    expect((await t.daemon.cli('status')).stdout).toContain('worker: 12 waiting for other jobs');
    expect((await show(first)).dependents!.map((l) => l.id)).toEqual(ids);
    writeFileSync(join(work.dir, 'go'), '');
    expect((await t.daemon.cli('wait', ...ids.map(String))).code).toBe(0);
  });

  it('--delay holds a job back; status says when it is scheduled for', async () => {
    // An hour ahead for what status and jobs say (a loaded machine may take seconds per call), then cancelled.
    const later = await add('--delay', '1h', '--', 'true');
    expect((await t.daemon.cli('status')).stdout).toMatch(/worker: 1 scheduled for \d\d:\d\d/);
    expect((await t.daemon.cli('jobs', '--limit', '1')).stdout).toContain('scheduled for');
    expect((await t.daemon.cli('cancel', String(later))).code).toBe(0);
    const id = await add('--delay', '2s', '--', 'true');
    const queued = await show(id);
    expect((await t.daemon.cli('wait', String(id))).code).toBe(0);
    expect((await show(id)).startedAt!).toBeGreaterThanOrEqual(queued.createdAt + 2000);
    const bad = await t.daemon.cli('add', '--delay', 'soon', '--', 'true');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--delay: a span is a number and a unit: s, m, h, d or w');
  });

  it('--at reads the next HH:MM local time, or ISO 8601', () => {
    const now = new Date(2026, 11, 1, 20, 30);
    expect(new Date(atTime('02:00', now))).toEqual(new Date(2026, 11, 2, 2, 0));
    expect(new Date(atTime('21:15', now))).toEqual(new Date(2026, 11, 1, 21, 15));
    expect(atTime('2026-12-03T01:00:00Z', now)).toBe(Date.UTC(2026, 11, 3, 1, 0));
    expect(() => atTime('25:00', now)).toThrow(/00:00 to 23:59/);
    expect(() => atTime('2020-01-01T00:00Z', now)).toThrow(/already past/);
    expect(() => atTime('tonight', now)).toThrow(/ISO 8601/);
  });

  it('lanes jobs --label lists exactly the labelled jobs; --priority is kept', async () => {
    const a = await add('--label', 'nightly', '--priority', '7', '--', 'true');
    const b = await add('--label', 'nightly', '--label', 'big', '--', 'true');
    await add('--label', 'daily', '--', 'true');
    const page = JSON.parse((await t.daemon.cli('jobs', '--label', 'nightly', '--json')).stdout) as JobPage;
    expect(page.jobs.map((j) => j.id).sort()).toEqual([a, b].sort());
    expect(page.jobs.find((j) => j.id === a)!.priority).toBe(7);
    const neg = await add('--priority', '-5', '--', 'true');
    expect((await show(neg)).priority).toBe(-5);
    expect((await t.daemon.cli('add', '--priority', '101', '--', 'true')).code).toBe(2);
  });

  it('lanes edit changes a queued job’s command, which is what runs; a running job exits 1 and is unchanged', async () => {
    await t.daemon.cli('cap', 'worker', '1');
    // The blocker runs until the test lets it go, however slowly the calls below come.
    const blocker = await add('--cwd', work.dir, '--', 'while [ ! -f go-edit ]; do sleep 0.05; done');
    await t.reaches(blocker, 'running');
    const queued = await add('--cwd', work.dir, '--', 'touch', 'old-command');
    const edit = await t.daemon.cli('edit', String(queued), '--priority', '3', '--', 'touch new-command');
    expect(edit.code).toBe(0);
    expect(edit.stdout).toContain('touch new-command');
    const refused = await t.daemon.cli('edit', String(blocker), '--', 'true');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`job ${blocker} is running; only a job still queued can be edited, and nothing was changed`);
    writeFileSync(join(work.dir, 'go-edit'), '');
    expect((await t.daemon.cli('wait', String(blocker), String(queued))).code).toBe(0);
    expect((await show(blocker)).command).toBe('while [ ! -f go-edit ]; do sleep 0.05; done');
    const ran = await show(queued);
    expect(ran).toMatchObject({ command: 'touch new-command', priority: 3 });
    const { existsSync } = await import('node:fs');
    expect([existsSync(join(work.dir, 'new-command')), existsSync(join(work.dir, 'old-command'))]).toEqual([true, false]);
  });

  it('lanes restart of a succeeded job prints a new id that runs the same command; show links the two', async () => {
    const id = await add('--', 'echo', 'again');
    expect((await t.daemon.cli('wait', String(id))).code).toBe(0);
    const res = await t.daemon.cli('restart', String(id));
    expect(res.code).toBe(0);
    const fresh = Number(res.stdout.trim());
    expect(fresh).not.toBe(id);
    expect((await t.daemon.cli('wait', String(fresh))).code).toBe(0);
    expect((await t.daemon.cli('log', String(fresh))).stdout).toBe('again\n');
    expect((await t.daemon.cli('show', String(id))).stdout).toContain(`restarted as job ${fresh}`);
    expect((await t.daemon.cli('show', String(fresh))).stdout).toContain(`restart of job ${id}`);
    const queuedOne = await add('--delay', '1h', '--', 'true');
    const refused = await t.daemon.cli('restart', String(queuedOne));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('only a finished job can be restarted');
    await t.daemon.cli('cancel', String(queuedOne));
  });
});
