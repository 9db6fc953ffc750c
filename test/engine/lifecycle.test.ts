// Stopping gracefully, and replacing a worker that has stopped answering.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { appRoot } from '../../electron/paths/app-files.js';
import { jobsFinished, nextEvent, pidAlive, startEngine, tempDir, until } from '../support/engine.js';

let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempDir()));
afterEach(() => cleanup());

const firstLine = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n')[0]! : '');
async function fileWritten(file: string): Promise<number> {
  // Written by a job in another process: nothing to subscribe to, so look briefly and often.
  for (let i = 0; i < 1200 && firstLine(file) === ''; i++) await new Promise((r) => setTimeout(r, 25));
  const pid = Number(firstLine(file));
  // Never 0 or garbage: a signal to pid 0 would go to this test's own process group.
  if (!Number.isInteger(pid) || pid <= 1) throw new Error(`${file} holds no process id`);
  return pid;
}

describe('stopping', () => {
  it('lets running jobs finish within the grace period', async () => {
    const engine = await startEngine(dir);
    const { id } = await engine.request('addJob', { shell: 'touch started; sleep 0.5; echo finished > out', cwd: dir });
    await nextEvent(engine, (e) => e.type === 'job' && e.data.state === 'running');
    await engine.stop({ graceMs: 10_000 });
    expect(firstLine(join(dir, 'out'))).toBe('finished');
    const again = await startEngine(dir);
    expect((await again.request('job', { id })).state).toBe('succeeded');
    await again.stop();
  });

  it('runs what did not finish in time again at the next start, without spending an attempt', async () => {
    const engine = await startEngine(dir);
    const { id } = await engine.request('addJob', { shell: 'echo $$ > job.pid; if [ ! -f second ]; then touch second; sleep 60; fi', cwd: dir, maxAttempts: 1 });
    const pid = await fileWritten(join(dir, 'job.pid'));
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
      const { id } = await engine.request('addJob', { shell: 'echo $PPID > worker.pid; if [ "$LANES_ATTEMPT" = 1 ]; then sleep 60; fi', cwd: dir });
      const worker = await fileWritten(join(dir, 'worker.pid'));
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
    const { id } = await engine.request('addJob', { shell: 'echo $$ > job.pid; if [ ! -f second ]; then touch second; sleep 60; fi', cwd: dir });
    const pid = await fileWritten(join(dir, 'job.pid'));
    const patient = engine.stop({ graceMs: 120_000 });
    const started = Date.now();
    await engine.stop({ graceMs: 100 });
    await patient;
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(pidAlive(pid)).toBe(false);
    const again = await startEngine(dir);
    expect((await jobsFinished(again, [id]))[0]).toMatchObject({ state: 'succeeded', attempts: 2, maxAttempts: 4 });
    await again.stop();
  });
});

describe('an idle engine', () => {
  /** What a fresh process holding an engine still has running once the engine has stopped. */
  const leftAfterStop = (how: 'engine' | 'hosted') => {
    const out = execFileSync(process.execPath, [join(appRoot, 'dist', 'test', 'support', 'stop-idle.js'), dir, how], { encoding: 'utf8' });
    return (JSON.parse(out) as { left: string[] }).left;
  };

  it('stops without waiting out its grace period, and leaves no timer or socket behind', () => {
    expect(leftAfterStop('engine').filter((r) => r !== 'TTYWrap' && r !== 'PipeWrap')).toEqual([]);
  });

  it('hosted with its API, closes the same way', () => {
    expect(leftAfterStop('hosted').filter((r) => r !== 'TTYWrap' && r !== 'PipeWrap')).toEqual([]);
  });
});
