// The worker runtime's side of a hand: a real worker process, forked as the engine forks it, with
// this test in the engine's place on its channel. A job that runs as long as a whole hand was
// meant to last sends the rest of the hand back with its report; one that does not goes on to the
// next in hand without asking.
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { workerEntry } from '../../electron/paths/app-files.js';
import { WORKER_ENV, type FromWorker, type JobAssignment, type ToWorker } from '../../electron/worker-protocol/protocol.js';
import { checkMessage } from '../../electron/engine/workers/messages.js';
import { HAND_MAX } from '../../electron/engine/store/job-statements.js';
import { tempDir } from '../support/engine.js';

describe('the worker runtime with jobs in hand', () => {
  const children: ChildProcess[] = [];
  const dirs: { cleanup(): void }[] = [];
  afterEach(() => {
    for (const c of children.splice(0)) c.kill('SIGKILL');
    for (const d of dirs.splice(0)) d.cleanup();
  });

  /** A worker of a shell lane; resolves with its first `done` report after it is handed `jobs`. */
  async function firstReport(handBackMs: number | null, argvs: string[][]): Promise<Extract<FromWorker, { t: 'done' }>> {
    const dir = tempDir();
    dirs.push(dir);
    const env: Record<string, string> = { ...process.env, [WORKER_ENV.lane]: 'a', [WORKER_ENV.id]: 'a#1' } as Record<string, string>;
    if (handBackMs !== null) env[WORKER_ENV.handBackMs] = String(handBackMs);
    const child = fork(workerEntry, [], { env, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    children.push(child);
    const jobs: JobAssignment[] = argvs.map((argv, i) => {
      const out = (ext: string) => join(dir.dir, `${i + 1}.${ext}`);
      return { id: i + 1, attempt: 1, specJson: JSON.stringify({ kind: 'argv', argv }), timeoutMs: null, stdoutPath: out('out'), stderrPath: out('err'), allPath: out('log'), joinedPath: out('logs') };
    });
    return new Promise((resolve, reject) => {
      child.on('exit', (code) => reject(new Error(`the worker exited (${code}) before it reported`)));
      child.on('message', (m: FromWorker) => {
        if (m.t === 'pull') child.send({ t: 'jobs', jobs, firstStarted: true } satisfies ToWorker);
        if (m.t === 'done') resolve(m);
      });
    });
  }

  it('a job that ran as long as a hand was meant to last sends the rest back, and the worker asks anew', async () => {
    // A hand meant to last 1 ms: starting any process takes longer.
    const report = await firstReport(1, [['true'], ['true'], ['true']]);
    expect(report).toMatchObject({ jobId: 1, pull: true, returned: [2, 3] });
    expect(report.next).toBeUndefined();
  });

  it('a short job goes on to the next in hand, giving nothing back', async () => {
    const report = await firstReport(null, [['true'], ['true'], ['true']]);
    expect(report).toMatchObject({ jobId: 1, pull: false, next: { jobId: 2, attempt: 1 } });
    expect(report.returned).toBeUndefined();
  });

  it('what a report says it gives back is checked like the rest of it', () => {
    const done = (returned: unknown) => ({ t: 'done', jobId: 1, attempt: 1, pull: true, outcome: { state: 'succeeded', exitCode: 0, error: null }, returned });
    expect(checkMessage(done([2, 3]))).toMatchObject({ ok: true, message: { returned: [2, 3] } });
    for (const bad of ['2', [2, -1], [2.5], Array.from({ length: HAND_MAX + 1 }, (_, i) => i)]) expect(checkMessage(done(bad))).toMatchObject({ ok: false, why: expect.stringMatching(/returned/) });
  });
});
