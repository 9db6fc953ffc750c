// Losing a worker or the whole engine to kill -9 costs a retry, never a job.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appRoot } from '../../electron/paths/app-files.js';
import { jobsFinished, nextEvent, pidAlive, startEngine, tempDir, WORKER_PID } from '../support/engine.js';
import { lines, waitFor, within } from '../support/poll.js';

let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempDir()));
afterEach(() => cleanup());


describe('a worker killed mid-job', () => {
  it('takes its job’s processes with it, and the job completes exactly once on retry', async () => {
    const engine = await startEngine(dir);
    try {
      const script = [
        `echo ${WORKER_PID} > worker.pid`,
        'if [ "$LANES_ATTEMPT" = 1 ]; then sleep 60 & echo $! > child.pid; wait; fi',
        'echo done >> completions',
      ].join('\n');
      const { id } = await engine.request('addJob', { shell: script, cwd: dir });
      await waitFor(() => lines(join(dir, 'child.pid')).length === 1, 'the job’s child');
      const worker = Number(lines(join(dir, 'worker.pid'))[0]);
      const child = Number(lines(join(dir, 'child.pid'))[0]);
      const crash = nextEvent(engine, (e) => e.type === 'scale' && e.data.reason === 'crash');
      process.kill(worker, 'SIGKILL');
      expect((await crash).data).toMatchObject({ lane: 'worker', from: 1, to: 0 });

      const [job] = await jobsFinished(engine, [id]);
      expect(job).toMatchObject({ state: 'succeeded', attempts: 2 });
      expect(pidAlive(child)).toBe(false);
      expect(lines(join(dir, 'completions'))).toEqual(['done']);
    } finally {
      await engine.stop({ graceMs: 2000 });
    }
  });

  it('fails the job instead of retrying past its attempts', async () => {
    const engine = await startEngine(dir);
    try {
      const { id } = await engine.request('addJob', { shell: `echo ${WORKER_PID} > worker.pid; sleep 60`, cwd: dir, maxAttempts: 1 });
      await waitFor(() => lines(join(dir, 'worker.pid')).length === 1, 'the worker pid');
      process.kill(Number(lines(join(dir, 'worker.pid'))[0]), 'SIGKILL');
      const [job] = await jobsFinished(engine, [id]);
      expect(job!.state).toBe('failed');
      expect(job!.error).toMatch(/worker killed by SIGKILL during attempt 1/);
    } finally {
      await engine.stop({ graceMs: 2000 });
    }
  });
});

describe('the engine killed under load', () => {
  it('loses no job: after a restart every job runs to completion, each recorded once', async () => {
    const n = 30;
    const jobs = Array.from({ length: n }, () => ({ shell: `echo ${WORKER_PID} >> workers; sleep 0.2; echo $LANES_JOB_ID >> completions`, cwd: dir }));
    const child = spawn(process.execPath, [join(appRoot, 'dist/test/support/engine-main.js'), dir, '3', JSON.stringify(jobs)], { stdio: ['ignore', 'pipe', 'inherit'] });
    const ids = await within(
      new Promise<number[]>((resolve) => {
        child.stdout.on('data', (d: Buffer) => {
          const m = /queued ([\d,]+)/.exec(d.toString());
          if (m) resolve(m[1]!.split(',').map(Number));
        });
      }),
      'the engine saying what it queued',
    );
    expect(ids).toHaveLength(n);
    await waitFor(() => lines(join(dir, 'completions')).length >= 6, 'some completions');
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));

    // Its workers notice their engine is gone and end themselves and their jobs.
    const orphans = [...new Set(lines(join(dir, 'workers')).map(Number))];
    await waitFor(() => orphans.every((pid) => !pidAlive(pid)), 'the old workers to exit', 10_000);

    const engine = await startEngine(dir);
    try {
      const finished = await jobsFinished(engine, ids);
      expect(finished.every((j) => j.state === 'succeeded')).toBe(true);
      expect(new Set(lines(join(dir, 'completions')).map(Number))).toEqual(new Set(ids));
      // Interrupted ones came back with the attempt counted.
      expect(finished.some((j) => j.attempts === 2)).toBe(true);
      const page = await engine.request('listJobs', { state: 'succeeded', limit: 1000 });
      expect(page.total).toBe(n);
    } finally {
      await engine.stop({ graceMs: 2000 });
    }
  });
});
