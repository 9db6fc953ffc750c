// Poison never takes the engine down: an answer too deep or too large fails its job; a job the
// engine died under twice is failed, not run again; failures are retried after a wait, each attempt's error
// kept; a lane whose worker command cannot start backs off instead of spinning.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appRoot } from '../../electron/paths/app-files.js';
import type { ScaleEvent } from '../../shared/model.js';
import { engineEachTest, jobsFinished, nextEvent, startEngine, until, WORKER_PID } from '../support/engine.js';
import { lines, waitFor } from '../support/poll.js';

const t = engineEachTest({ cores: 3 });

/** A persistent worker in Python that answers as told: deep, huge, or plainly. */
function oddWorker(): string[] {
  const script = join(t.dir, 'odd_worker.py');
  writeFileSync(
    script,
    [
      'import json, sys',
      'for line in sys.stdin:',
      '    job = json.loads(line)',
      '    kind = job["payload"]["kind"]',
      '    if kind == "deep":',
      '        result = "[" * 4120 + "]" * 4120',
      '        sys.stdout.write(\'{"id": %d, "ok": true, "result": %s}\\n\' % (job["id"], result))',
      '    elif kind == "huge":',
      '        sys.stdout.write(json.dumps({"id": job["id"], "ok": True, "result": "x" * 20_000_000}) + "\\n")',
      '    else:',
      '        sys.stdout.write(json.dumps({"id": job["id"], "ok": True, "result": {"fine": True}}) + "\\n")',
      '    sys.stdout.flush()',
    ].join('\n'),
  );
  return ['python3', script];
}

describe('poison answers', () => {
  it('an answer nested thousands deep fails its job, and the engine runs the next', async () => {
    await t.engine.request('addLane', { name: 'odd', cap: 1, workerCommand: oddWorker() });
    const deep = await t.engine.request('addJob', { lane: 'odd', payload: { kind: 'deep' }, maxAttempts: 1 });
    const fine = await t.engine.request('addJob', { lane: 'odd', payload: { kind: 'fine' } });
    const [d, f] = await jobsFinished(t.engine, [deep.id, fine.id]);
    expect(d).toMatchObject({ state: 'failed', error: expect.stringMatching(/answer .*(nests deeper|more than)/) });
    expect(f).toMatchObject({ state: 'succeeded', result: { fine: true } });
  });

  it('a 20 MB answer fails its job and is not stored; lists and events stay small', async () => {
    await t.engine.request('addLane', { name: 'odd', cap: 1, workerCommand: oddWorker() });
    const { ids } = await t.engine.request('addJobs', { jobs: Array.from({ length: 3 }, () => ({ lane: 'odd', payload: { kind: 'huge' }, maxAttempts: 1 })) });
    const jobs = await jobsFinished(t.engine, ids);
    for (const job of jobs) {
      expect(job.state).toBe('failed');
      expect(job.error).toMatch(/more than/);
      expect(job.result).toBeNull();
    }
    const page = await t.engine.request('listJobs', { lane: 'odd' });
    expect(JSON.stringify(page).length).toBeLessThan(10_000);
    expect(page.jobs[0]).not.toHaveProperty('result');
    expect(page.jobs[0]).not.toHaveProperty('spec');
  });
});

describe('retries', () => {
  it('wait before they run again (shown as runAfter), and every attempt keeps its own error', async () => {
    const delayed = nextEvent(t.engine, (e) => e.type === 'job' && e.data.state === 'queued' && e.data.runAfter !== null);
    const { id } = await t.engine.request('addJob', { shell: 'echo "try $LANES_ATTEMPT" >&2; exit $((10 + LANES_ATTEMPT))', maxAttempts: 3 });
    const waiting = (await delayed).data as { runAfter: number; attempts: number };
    expect(waiting.attempts).toBe(1);
    const [job] = await jobsFinished(t.engine, [id]);
    expect(job).toMatchObject({ state: 'failed', attempts: 3, exitCode: 13 });
    const full = await t.engine.request('job', { id });
    expect(full.history.map((a) => [a.attempt, a.outcome, a.exitCode, a.error])).toEqual([
      [1, 'failed', 11, 'exited with code 11'],
      [2, 'failed', 12, 'exited with code 12'],
      [3, 'failed', 13, 'exited with code 13'],
    ]);
    // The second run started no sooner than its wait allowed: a recorded fact, not a timing.
    expect(waiting.runAfter - full.history[0]!.finishedAt).toBeGreaterThanOrEqual(1_000);
  });

  it('a job that kills its worker waits before it is tried again, instead of at once', async () => {
    const { id } = await t.engine.request('addJob', { shell: `echo "$LANES_ATTEMPT $(date +%s%3N)" >> starts; [ "$LANES_ATTEMPT" -ge 3 ] || kill -9 ${WORKER_PID}; sleep 1`, cwd: t.dir, maxAttempts: 3 });
    const [job] = await jobsFinished(t.engine, [id]);
    expect(job).toMatchObject({ state: 'succeeded', attempts: 3 });
    const full = await t.engine.request('job', { id });
    expect(full.history.map((a) => a.outcome)).toEqual(['interrupted', 'interrupted']);
    const started = lines(join(t.dir, 'starts')).map((l) => Number(l.split(' ')[1]));
    expect(started[1]! - started[0]!).toBeGreaterThanOrEqual(1_000);
    expect(started[2]! - started[1]!).toBeGreaterThanOrEqual(2_000);
    // The workers it killed were working: the lane itself is not held back.
    expect(t.engine.status().lanes.find((l) => l.name === 'worker')?.startsBlockedUntil).toBeNull();
  });

  it('a lane whose worker command dies while starting backs off and says so in its status and the ledger', async () => {
    const crashes: ScaleEvent[] = [];
    t.engine.events.subscribe((e) => {
      if (e.type === 'scale' && e.data.reason === 'crash') crashes.push(e.data);
    });
    await t.engine.request('addLane', { name: 'broken', cap: 1, workerCommand: ['python3', '-c', 'import sys; sys.exit(3)'] });
    await t.engine.request('addJobs', { jobs: Array.from({ length: 5 }, () => ({ lane: 'broken', payload: {}, maxAttempts: 1 })) });
    await until(t.engine, () => crashes.length >= 2, 30_000, 'two workers lost');
    expect(crashes[0]!.detail).toMatch(/died before it could answer a job; the next worker waits 1 s/);
    expect(crashes[1]!.detail).toMatch(/the next worker waits 2 s/);
    const lane = t.engine.status().lanes.find((l) => l.name === 'broken')!;
    expect(lane.startsBlockedUntil).toBeGreaterThan(Date.now());
  });
});

describe('a job the engine died under', () => {
  it('is failed after the second time in a row, not run into a third', async () => {
    const script = 'echo $LANES_ATTEMPT >> starts; sleep 60';
    const engineMain = join(appRoot, 'dist', 'test', 'support', 'engine-main.js');
    const crashOnce = async (jobs: unknown[]) => {
      const child = spawn(process.execPath, [engineMain, t.dir, '1', JSON.stringify(jobs)], { stdio: ['ignore', 'pipe', 'inherit'] });
      const before = lines(join(t.dir, 'starts')).length;
      try {
        await waitFor(() => lines(join(t.dir, 'starts')).length > before, 'the job started by the engine about to be killed');
      } finally {
        child.kill('SIGKILL');
        await new Promise((r) => child.once('exit', r));
      }
    };
    await t.engine.stop();
    await crashOnce([{ shell: script, cwd: t.dir, maxAttempts: 5 }]);
    await crashOnce([]);
    expect(lines(join(t.dir, 'starts'))).toEqual(['1', '2']);
    const engine = await startEngine(t.dir);
    try {
      const job = (await engine.request('listJobs', {})).jobs[0]!;
      expect(job).toMatchObject({ state: 'failed', error: expect.stringMatching(/^not run again: the engine stopped unexpectedly 2 times in a row/) });
      const full = await engine.request('job', { id: job.id });
      expect(full.history.map((a) => a.outcome)).toEqual(['interrupted', 'interrupted']);
      // Retrying is the person's decision, and it runs then.
      await engine.request('retry', { id: job.id });
      // The job writes the file, not the engine: no event follows the line, so look for it.
      await waitFor(() => lines(join(t.dir, 'starts')).length >= 3, 'the retried job started');
      // The retry numbers on: its third attempt (LANES_ATTEMPT 3).
      expect(lines(join(t.dir, 'starts'))).toEqual(['1', '2', '3']);
    } finally {
      await engine.stop({ graceMs: 0 });
    }
  });
});
