// Stopping gracefully, and replacing a worker that has stopped answering.
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { appRoot } from '../../electron/paths/app-files.js';
import { jobsFinished, nextEvent, pidAlive, startEngine, tempDir, until, WORKER_PID } from '../support/engine.js';
import { lines, pidIn } from '../support/poll.js';

let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempDir()));
afterEach(() => cleanup());

describe('stopping', () => {
  it('lets running jobs finish within the grace period', async () => {
    const engine = await startEngine(dir);
    const { id } = await engine.request('addJob', { shell: 'touch started; sleep 0.5; echo finished > out', cwd: dir });
    await nextEvent(engine, (e) => e.type === 'job' && e.data.state === 'running');
    await engine.stop({ graceMs: 10_000 });
    expect(lines(join(dir, 'out'))).toEqual(['finished']);
    const again = await startEngine(dir);
    expect((await again.request('job', { id })).state).toBe('succeeded');
    await again.stop();
  });

  it('runs what did not finish in time again at the next start, without spending an attempt', async () => {
    const engine = await startEngine(dir);
    const { id } = await engine.request('addJob', { shell: 'echo $$ > job.pid; if [ ! -f second ]; then touch second; sleep 60; fi', cwd: dir, maxAttempts: 1 });
    const pid = await pidIn(join(dir, 'job.pid'));
    await engine.stop({ graceMs: 300 });
    expect(pidAlive(pid)).toBe(false);
    const again = await startEngine(dir);
    expect((await again.request('job', { id })).state).not.toBe('failed');
    const [job] = await jobsFinished(again, [id]);
    // Not spent: the stopped run keeps its number, and the job has one more attempt for it.
    expect(job).toMatchObject({ state: 'succeeded', attempts: 2, maxAttempts: 2 });
    await again.stop();
  });
});

describe('a worker that stops answering', () => {
  it('is killed and replaced, and its job runs again', async () => {
    const engine = await startEngine(dir, { heartbeatMs: 200 });
    try {
      const { id } = await engine.request('addJob', { shell: `echo ${WORKER_PID} > worker.pid; if [ "$LANES_ATTEMPT" = 1 ]; then sleep 60; fi`, cwd: dir });
      const worker = await pidIn(join(dir, 'worker.pid'));
      process.kill(worker, 'SIGSTOP'); // alive, but silent
      const lost = await nextEvent(engine, (e) => e.type === 'scale' && e.data.reason === 'unresponsive');
      expect(lost.data).toMatchObject({ lane: 'worker', from: 1, to: 0 });
      const [job] = await jobsFinished(engine, [id]);
      expect(job).toMatchObject({ state: 'succeeded', attempts: 2 });
      await until(engine, () => !pidAlive(worker), 10_000, 'the silent worker gone');
    } finally {
      await engine.stop({ graceMs: 2000 });
    }
  });
});

describe('a second, shorter stop', () => {
  it('cuts the grace period of the first', async () => {
    const engine = await startEngine(dir);
    // The first attempt would sleep its minute out within the first stop's grace, then say so.
    const { id } = await engine.request('addJob', { shell: 'echo $$ > job.pid; if [ ! -f second ]; then touch second; sleep 60; echo slept > slept; fi', cwd: dir });
    const pid = await pidIn(join(dir, 'job.pid'));
    const patient = engine.stop({ graceMs: 120_000 });
    await engine.stop({ graceMs: 100 });
    await patient;
    // Both stops are over, and the job was ended, not waited out. Were the grace not cut, the
    // first stop would wait the minute out and `slept` be written: the test's own time (90 s)
    // leaves room for that to show here, as a failed expectation rather than a timeout.
    expect(pidAlive(pid)).toBe(false);
    expect(lines(join(dir, 'slept'))).toEqual([]);
    const again = await startEngine(dir);
    expect((await jobsFinished(again, [id]))[0]).toMatchObject({ state: 'succeeded', attempts: 2, maxAttempts: 4 });
    await again.stop();
  }, 90_000);
});

describe('an idle engine', () => {
  /** What a fresh process holding an engine still has running once the engine has stopped. */
  const leftAfterStop = (how: 'engine' | 'hosted') => {
    // Bounded here: a synchronous call holds the event loop, so the test's own timeout could not end it.
    const out = execFileSync(process.execPath, [join(appRoot, 'dist', 'test', 'support', 'stop-idle.js'), dir, how], { encoding: 'utf8', timeout: 30_000 });
    return (JSON.parse(out) as { left: string[] }).left;
  };

  it('stops without waiting out its grace period, and leaves no timer or socket behind', () => {
    expect(leftAfterStop('engine').filter((r) => r !== 'TTYWrap' && r !== 'PipeWrap')).toEqual([]);
  });

  it('hosted with its API, closes the same way', () => {
    expect(leftAfterStop('hosted').filter((r) => r !== 'TTYWrap' && r !== 'PipeWrap')).toEqual([]);
  });
});
