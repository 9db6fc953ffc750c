// Real commands through real worker processes, against a real SQLite file.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { engineEachTest, jobsFinished, nextEvent, pidAlive } from '../support/engine.js';
import { pidIn } from '../support/poll.js';

const t = engineEachTest();

describe('jobs', () => {
  it('runs argv and shell commands, with cwd and env, and keeps their output', async () => {
    const a = await t.engine.request('addJob', { argv: ['sh', '-c', 'pwd; echo "$GREETING"; echo oops >&2'], cwd: t.dir, env: { GREETING: 'hello' } });
    const b = await t.engine.request('addJob', { shell: 'echo one && echo two', maxAttempts: 1 });
    const [ja, jb] = await jobsFinished(t.engine, [a.id, b.id]);
    expect(ja).toMatchObject({ state: 'succeeded', exitCode: 0, attempts: 1 });
    expect(jb).toMatchObject({ state: 'succeeded', exitCode: 0 });
    expect((await t.engine.request('logTail', { id: a.id })).text).toBe(`${t.dir}\nhello\n`);
    expect((await t.engine.request('logTail', { id: a.id, stream: 'stderr' })).text).toBe('oops\n');
    expect((await t.engine.request('logTail', { id: b.id })).text).toBe('one\ntwo\n');
  });

  it('retries a failing job up to its attempts, then records the failure', async () => {
    const { id } = await t.engine.request('addJob', { shell: 'echo try >> tries; exit 3', cwd: t.dir, maxAttempts: 2 });
    const [job] = await jobsFinished(t.engine, [id]);
    expect(job).toMatchObject({ state: 'failed', exitCode: 3, attempts: 2, error: 'exited with code 3' });
    expect(readFileSync(join(t.dir, 'tries'), 'utf8')).toBe('try\ntry\n');
  });

  it('reports a command that cannot start', async () => {
    const { id } = await t.engine.request('addJob', { argv: ['/nonexistent/program'], maxAttempts: 1 });
    const [job] = await jobsFinished(t.engine, [id]);
    expect(job!.state).toBe('failed');
    expect(job!.error).toMatch(/could not start/);
  });

  it('cancels a queued job before it runs, and a running one with everything it started', async () => {
    await t.engine.request('setCap', { lane: 'worker', cap: 1 });
    const pidFile = join(t.dir, 'child.pid');
    const running = await t.engine.request('addJob', { shell: `sleep 60 & echo $! > ${pidFile}; wait`, cwd: t.dir });
    const queued = await t.engine.request('addJob', { argv: ['touch', join(t.dir, 'never')] });
    await nextEvent(t.engine, (e) => e.type === 'job' && e.data.id === running.id && e.data.state === 'running');
    const grandchild = await pidIn(pidFile);
    expect(pidAlive(grandchild)).toBe(true);

    expect((await t.engine.request('cancel', { id: queued.id })).state).toBe('cancelled');
    await t.engine.request('cancel', { id: running.id });
    const [r] = await jobsFinished(t.engine, [running.id]);
    expect(r).toMatchObject({ state: 'cancelled', error: 'cancelled while running' });
    expect(pidAlive(grandchild)).toBe(false);
    expect(existsSync(join(t.dir, 'never'))).toBe(false);
    await expect(t.engine.request('cancel', { id: r!.id })).rejects.toThrow(/already been cancelled/);
  });

  it('retries a failed job on request', async () => {
    const flag = join(t.dir, 'flag');
    const { id } = await t.engine.request('addJob', { shell: `test -f ${flag}`, maxAttempts: 1 });
    expect((await jobsFinished(t.engine, [id]))[0]!.state).toBe('failed');
    writeFileSync(flag, '');
    expect((await t.engine.request('retry', { id })).state).toBe('queued');
    // The retry is its second attempt, with one more allowed: no two attempts share a number.
    expect((await jobsFinished(t.engine, [id]))[0]).toMatchObject({ state: 'succeeded', attempts: 2, maxAttempts: 2 });
    await expect(t.engine.request('retry', { id })).rejects.toThrow(/only a failed or cancelled job/);
  });

  it('keeps the tail of a log that outgrows its cap', async () => {
    await t.restart({ logCapBytes: 4096 });
    const { id } = await t.engine.request('addJob', { shell: 'i=0; while [ $i -lt 2000 ]; do echo "line $i"; i=$((i+1)); done' });
    await jobsFinished(t.engine, [id]);
    const log = await t.engine.request('logTail', { id, maxBytes: 100_000 });
    expect(log.truncated).toBe(true);
    expect(log.text.length).toBeLessThanOrEqual(4096);
    expect(log.text.endsWith('line 1999\n')).toBe(true);
    expect(log.text).not.toContain('line 5\n');
  });

  it('lists jobs newest first, filtered, with totals from the maintained counts', async () => {
    const { ids } = await t.engine.request('addJobs', { jobs: Array.from({ length: 5 }, () => ({ argv: ['true'] })) });
    await jobsFinished(t.engine, ids);
    const page = await t.engine.request('listJobs', { state: 'succeeded', limit: 2 });
    expect(page.total).toBe(5);
    expect(page.jobs.map((j) => j.id)).toEqual([ids[4], ids[3]]);
    const next = await t.engine.request('listJobs', { state: 'succeeded', limit: 2, beforeId: page.nextBeforeId! });
    expect(next.jobs.map((j) => j.id)).toEqual([ids[2], ids[1]]);
    // A live pace: five just finished, so it is well above zero, and with nothing left no ETA.
    const worker = t.engine.status().lanes.find((l) => l.name === 'worker')!;
    expect(worker.throughputPerMin).toBeGreaterThan(0);
    expect(worker.etaMs).toBeNull();
  });
  it('finds matches behind a long queue in bounded steps: a short page says where to go on', async () => {
    const [done] = await jobsFinished(t.engine, [(await t.engine.request('addJob', { argv: ['true'] })).id]);
    await t.engine.request('addLane', { name: 'held', cap: 0 });
    for (let i = 0; i < 3; i++) await t.engine.request('addJobs', { jobs: Array.from({ length: 10_000 }, () => ({ lane: 'held', argv: ['true'] })) });
    const found: number[] = [];
    let requests = 0;
    let beforeId: number | undefined;
    for (;;) {
      // Bounded: paging that never reached the end would otherwise spin until the test's timeout.
      if (requests === 1_000) throw new Error(`no end of the list after ${requests} pages`);
      const page = await t.engine.request('listJobs', { state: 'succeeded', limit: 10, ...(beforeId ? { beforeId } : {}) });
      requests++;
      found.push(...page.jobs.map((j) => j.id));
      if (page.nextBeforeId === null) break;
      beforeId = page.nextBeforeId;
    }
    expect(found).toEqual([done!.id]);
    // 30,000 queued jobs stand in front of it: more than one window, never all in one request.
    expect(requests).toBeGreaterThan(1);
    // Where an index holds exactly what is asked for, one request does.
    const queued = await t.engine.request('listJobs', { lane: 'held', state: 'queued', limit: 5 });
    expect(queued.jobs).toHaveLength(5);
    expect(queued.total).toBe(30_000);
  });

  it('never splits a character between two reads of a log', async () => {
    const text = 'añ€😀'.repeat(50) + '\n';
    const { id } = await t.engine.request('addJob', { argv: ['printf', '%s', text] });
    await jobsFinished(t.engine, [id]);
    let offset = 0;
    let read = '';
    for (let i = 0; i < 500 && read.length < text.length; i++) {
      const chunk = await t.engine.request('logTail', { id, offset, maxBytes: 5 });
      expect(chunk.text).not.toContain('\uFFFD');
      read += chunk.text;
      offset = chunk.nextOffset;
    }
    expect(read).toBe(text);
    const tail = await t.engine.request('logTail', { id, maxBytes: 6 });
    expect(tail.text).not.toContain('\uFFFD');
    expect(text.endsWith(tail.text)).toBe(true);
  });
});
