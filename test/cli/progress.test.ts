// A job saying how far it has got, end to end against a real `lanes daemon`: `lanes progress`
// from a shell job, `{"id": …, "progress": …}` lines from a persistent command, seen in `lanes
// show`, `lanes jobs`, `show --json` and the event stream. Each job waits on a fifo the test
// writes once it has seen what it waits for: nothing here waits on a clock.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { LanesEvent } from '../../shared/events.js';
import type { Job, JobPage } from '../../shared/model.js';
import { ROOT, startDaemon, tempDataDir } from '../support/daemon.js';
import { daemonForFile } from '../support/daemon-suite.js';

const t = daemonForFile();
const work = tempDataDir('lanes-progress-');
afterAll(() => work.remove());

/** A `lanes` on the job's PATH, as an installed one would be. */
function binDir(): string {
  const dir = join(work.dir, 'bin');
  execFileSync('mkdir', ['-p', dir]);
  const shim = join(dir, 'lanes');
  writeFileSync(shim, `#!/bin/sh\nexec "${process.execPath}" "${join(ROOT, 'bin', 'lanes.js')}" "$@"\n`);
  chmodSync(shim, 0o755);
  return dir;
}

/** A fifo the job reads from to go on: the test writes a line when it has seen the step. */
function fifo(name: string): string {
  const path = join(work.dir, name);
  execFileSync('mkfifo', [path]);
  return path;
}

const progressOf = (id: number, done: number) => (e: LanesEvent) => e.type === 'progress' && e.data.id === id && e.data.progress?.done === done;

async function add(...args: string[]): Promise<number> {
  const res = await t.daemon.cli('add', '--env', `PATH=${binDir()}:${process.env.PATH}`, ...args);
  expect(res.stderr).toBe('');
  return Number(res.stdout);
}

const show = async (id: number) => JSON.parse((await t.daemon.cli('show', String(id), '--json')).stdout) as Job;

describe('lanes progress from a shell job', () => {
  it('shows in show --json, show and jobs while it runs, and stays with the job when it ends', async () => {
    const go = fifo('three');
    const id = await add('--', `lanes progress 3/4 "step three" && read x < ${go}`);
    await t.events.next(progressOf(id, 3));
    expect((await show(id)).progress).toMatchObject({ fraction: 0.75, done: 3, total: 4, message: 'step three' });
    expect((await t.daemon.cli('show', String(id))).stdout).toContain('progress: 3 of 4 (75 %) — step three');
    const page = JSON.parse((await t.daemon.cli('jobs', '--json')).stdout) as JobPage;
    expect(page.jobs.find((j) => j.id === id)?.progress?.done).toBe(3);
    expect((await t.daemon.cli('jobs', '--wide')).stdout).toMatch(new RegExp(`^\\s*${id}\\s+worker\\s+running, 3 of 4`, 'm'));
    await writeFile(go, 'go\n');
    expect((await t.daemon.cli('wait', String(id))).code).toBe(0);
    expect((await t.daemon.cli('show', String(id))).stdout).toContain('progress: 3 of 4 (75 %) — step three (when it ended)');
  });

  it('ten steps: each one seen in lanes show and in the event stream', async () => {
    const go = fifo('ten');
    const id = await add('--', `for i in 1 2 3 4 5 6 7 8 9 10; do lanes progress $i/10 "step $i" || exit 1; read x < ${go}; done`);
    for (let step = 1; step <= 10; step++) {
      const seen = await t.events.next(progressOf(id, step));
      expect(seen.data).toMatchObject({ id, state: 'running', progress: { done: step, total: 10, message: `step ${step}` } });
      expect((await t.daemon.cli('show', String(id))).stdout).toContain(`progress: ${step} of 10`);
      await writeFile(go, 'go\n');
    }
    expect((await t.daemon.cli('wait', String(id))).code).toBe(0);
    // Each step once: nothing is announced twice, nothing that did not change.
    expect(t.events.events.filter((e) => e.type === 'progress' && e.data.id === id).map((e) => (e.data as Job).progress?.done)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('a report that is not progress is refused by lanes progress, and the job goes on', async () => {
    const id = await add('--', 'lanes progress 5/4; lanes progress lots; lanes progress 120%; echo went on');
    expect((await t.daemon.cli('wait', String(id))).code).toBe(0);
    expect((await t.daemon.cli('log', String(id))).stdout).toBe('went on\n');
    const err = (await t.daemon.cli('log', String(id), '--stderr')).stdout;
    expect(err).toContain('progress done (5) is more than its total (4)');
    expect(err).toContain('"lots" is not progress');
    expect(err).toContain('progress fraction must be a number from 0 to 1');
    expect((await show(id)).progress).toBeUndefined();
  });

  it('gives the lane an outlook on its first run, where a job that says nothing is "estimating…"', async () => {
    await t.daemon.api('addLane', { name: 'outlook', cap: 1 });
    await t.daemon.api('addLane', { name: 'blind', cap: 1 });
    const go = fifo('outlook');
    const goToo = fifo('blind');
    const id = await add('--lane', 'outlook', '--', `lanes progress 1/20 "a twentieth" && read x < ${go}`);
    const quiet = await add('--lane', 'blind', '--', `read x < ${goToo}`);
    await t.events.next(progressOf(id, 1));
    await t.reaches(quiet, 'running');
    const lanes = (await t.daemon.api('status', {})).lanes;
    const outlook = lanes.find((l) => l.name === 'outlook')!;
    expect(outlook.etaState).toBe('known');
    expect(outlook.etaMs).toBeGreaterThan(0);
    expect(lanes.find((l) => l.name === 'blind')).toMatchObject({ etaState: 'estimating', etaMs: null });
    expect((await t.daemon.cli('status')).stdout).toMatch(/1 left, about \d+ (s|min)/);
    await Promise.all([writeFile(go, 'go\n'), writeFile(goToo, 'go\n')]);
    expect((await t.daemon.cli('wait', String(id), String(quiet))).code).toBe(0);
  });

  it('outside a job it says so and does nothing else', async () => {
    const res = await t.daemon.cli('progress', '1/2', 'hello');
    expect(res.code).toBe(0);
    expect(res.stderr).toMatch(/not inside a Lanes shell job/);
  });

  it('a token other than the running job’s is not heard', async () => {
    const id = await add('--', 'LANES_PROGRESS_TOKEN=not-mine lanes progress 1/2');
    expect((await t.daemon.cli('wait', String(id))).code).toBe(0);
    expect((await t.daemon.cli('log', String(id), '--stderr')).stdout).toMatch(/progress not reported: not the job this worker runs now/);
    expect((await show(id)).progress).toBeUndefined();
  });
});

describe('progress lines from a persistent worker command', () => {
  it('are read for the job they name; one that is not progress is counted, never a failure', async () => {
    const go = fifo('persistent');
    // A worker in a few lines of Python, writing the protocol's lines itself.
    const script = [
      'import json, sys',
      'for line in sys.stdin:',
      '    job = json.loads(line)',
      '    say = lambda v: (sys.stdout.write(json.dumps(v) + "\\n"), sys.stdout.flush())',
      '    say({"id": job["id"], "progress": "lots"})',
      '    say({"id": job["id"] + 1000, "progress": {"done": 1, "total": 2}})',
      '    say({"id": job["id"], "progress": {"done": 12000, "total": 40000, "message": "embedding"}})',
      `    open(${JSON.stringify(go)}).read()`,
      '    say({"id": job["id"], "ok": True, "result": 1})',
    ].join('\n');
    await t.daemon.api('addLane', { name: 'embed', cap: 1, workerCommand: ['python3', '-c', script] });
    const { id } = await t.daemon.api('addJob', { lane: 'embed', payload: {} });
    await t.events.next(progressOf(id, 12000));
    expect((await show(id)).progress).toMatchObject({ fraction: 0.3, done: 12000, total: 40000, message: 'embedding', ignored: 2 });
    expect((await t.daemon.cli('show', String(id))).stdout).toContain('progress: 12,000 of 40,000 (30 %) — embedding');
    await writeFile(go, 'go\n');
    expect((await t.daemon.cli('wait', String(id))).code).toBe(0);
    expect((await t.daemon.cli('log', String(id))).stdout).toBe('');
  });
});

describe('a worker that cannot open its progress socket', () => {
  it('says why in the engine’s log, and its jobs run, told their report was not heard', async () => {
    // A private temporary folder whose path leaves no room for a socket address after it.
    const tmp = join(work.dir, 'a-temporary-folder-with-a-long-name'.repeat(3));
    mkdirSync(tmp, { mode: 0o700 });
    const d = await startDaemon({ env: { TMPDIR: tmp } });
    try {
      const res = await d.cli('add', '--env', `PATH=${binDir()}:${process.env.PATH}`, '--', 'lanes progress 1/2; echo went on');
      const id = res.stdout.trim();
      expect((await d.cli('wait', id)).code).toBe(0);
      expect((await d.cli('log', id)).stdout).toBe('went on\n');
      expect((await d.cli('log', id, '--stderr')).stdout).toMatch(new RegExp(`progress not reported: the worker running job ${id} cannot hear it`));
      expect(d.process.stderr()).toMatch(/jobs here cannot report progress: .* is too long for a socket address; set TMPDIR/);
    } finally {
      await d.stop();
    }
  });
});
