// The Python worker kit (python/lanes_worker) against a real `lanes daemon`: a worker of a dozen
// lines loads once, answers payload jobs, says how far it has got, refuses what no retry mends and
// keeps what it prints as log lines; and `pip install ./python` works with no package index.
// The kit is found through PYTHONPATH, as a checkout would use it; each job that must be seen
// mid-run waits on a fifo the test writes, so nothing here waits on a clock.
import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LanesEvent } from '../../shared/events.js';
import type { Job } from '../../shared/model.js';
import { ROOT, startDaemon, tempDataDir, type TestDaemon } from '../support/daemon.js';
import { recordEvents, type EventRecorder } from '../support/events.js';

const KIT = join(ROOT, 'python');
const work = tempDataDir('lanes-kit-');
let daemon: TestDaemon;
let events: EventRecorder;

beforeAll(async () => {
  daemon = await startDaemon({ env: { PYTHONPATH: KIT } });
  events = await recordEvents(daemon.client);
});
afterAll(async () => {
  events?.close();
  expect(await daemon?.stop()).toBe(0);
  work.remove();
});

/** The worker a person writes: fourteen lines, the kit doing the rest. */
const WORKER = `import sys, lanes_worker

def handle(payload, job):
    if not isinstance(payload, dict):
        raise lanes_worker.Refuse("payload must be an object")
    if payload.get("fail"):
        raise ValueError("not today")
    print("embedding", len(payload["docs"]), "docs")
    for i, doc in enumerate(payload["docs"]):
        job.progress(i + 1, len(payload["docs"]), "embedding")
        if payload.get("wait") == i + 1:
            open(payload["fifo"]).read()
    return {"embedded": len(payload["docs"])}

lanes_worker.run(handle)
`;

function script(): string {
  const path = join(work.dir, 'embed.py');
  writeFileSync(path, WORKER);
  return path;
}

const show = async (id: number) => JSON.parse((await daemon.cli('show', String(id), '--json')).stdout) as Job;
const finished = (id: number) => events.next((e: LanesEvent) => e.type === 'job' && e.data.id === id && ['succeeded', 'failed', 'cancelled'].includes(e.data.state));

describe('the Python worker kit', () => {
  it('is fifteen lines at most for a worker that reports progress', () => {
    expect(WORKER.trim().split('\n').length).toBeLessThanOrEqual(15);
  });

  it('answers payload jobs, and its progress shows in lanes show --json while it runs', async () => {
    await daemon.api('addLane', { name: 'embed', class: 'ml', cap: 1, workerCommand: ['python3', script()] });
    const fifo = join(work.dir, 'hold');
    execFileSync('mkfifo', [fifo]);
    const docs = Array.from({ length: 40 }, (_, i) => `doc ${i}`);
    const { id } = await daemon.api('addJob', { lane: 'embed', payload: { docs, wait: 12, fifo } });
    // The kit sends a few reports a second; it sent the one it was at when it stopped to wait.
    await events.next((e: LanesEvent) => e.type === 'progress' && e.data.id === id && e.data.progress?.done === 12);
    expect((await show(id)).progress).toMatchObject({ done: 12, total: 40, message: 'embedding', fraction: 0.3 });
    expect((await daemon.cli('show', String(id))).stdout).toContain('progress: 12 of 40 (30 %) — embedding');
    await writeFile(fifo, 'go\n');
    await finished(id);
    const job = await show(id);
    expect(job).toMatchObject({ state: 'succeeded', result: { embedded: 40 }, progress: { done: 40, total: 40 } });
    expect(job.progress?.ignored).toBeUndefined();
    // The kit said when it had loaded: that wait is the worker's, apart from the job's own time.
    expect(job.loadMs).toEqual(expect.any(Number));
    // What it printed is the job's log; the protocol's lines are not.
    expect((await daemon.cli('log', String(id))).stdout).toBe('embedding 40 docs\n');
    const next = await daemon.api('addJob', { lane: 'embed', payload: { docs: ['a', 'b'] } });
    await finished(next.id);
    expect(await show(next.id)).toMatchObject({ state: 'succeeded', result: { embedded: 2 } });
  });

  it('a refusal fails the job at once; an error fails this attempt, with its traceback in the log', async () => {
    const refused = await daemon.api('addJob', { lane: 'embed', payload: 'nope', maxAttempts: 3 });
    const failing = await daemon.api('addJob', { lane: 'embed', payload: { fail: true, docs: [] }, maxAttempts: 2 });
    await finished(refused.id);
    expect(await show(refused.id)).toMatchObject({ state: 'failed', attempts: 1, error: 'payload must be an object' });
    await finished(failing.id);
    const failed = await show(failing.id);
    expect(failed).toMatchObject({ state: 'failed', attempts: 2, error: 'ValueError: not today' });
    expect((await daemon.cli('log', String(failing.id), '--stderr')).stdout).toMatch(/Traceback[\s\S]*ValueError: not today/);
  });

  it('installs with pip from the checkout, with no package index, and runs from there', () => {
    const target = join(work.dir, 'site');
    const hasPip = spawnSync('python3', ['-m', 'pip', '--version']).status === 0;
    // Where this Python has no pip, the wheel its own backend builds is what pip would install.
    const install = hasPip
      ? spawnSync('python3', ['-m', 'pip', 'install', '--no-index', '--no-cache-dir', '--target', target, KIT], { encoding: 'utf8' })
      : spawnSync('python3', ['-c', `import sys, zipfile; sys.path.insert(0, ${JSON.stringify(join(KIT, '_build'))}); import lanes_build; w = lanes_build.build_wheel(${JSON.stringify(work.dir)}); zipfile.ZipFile(${JSON.stringify(work.dir)} + '/' + w).extractall(${JSON.stringify(target)})`], { encoding: 'utf8' });
    expect(install.status, install.stderr).toBe(0);
    const check = spawnSync('python3', ['-c', 'import lanes_worker; print(lanes_worker.__file__, lanes_worker.__version__)'], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', PYTHONPATH: target } });
    expect(check.status, check.stderr).toBe(0);
    expect(check.stdout).toBe(`${join(target, 'lanes_worker', '__init__.py')} 0.1.0\n`);
  });
});
