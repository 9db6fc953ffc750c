// Blocked is a fact the store keeps (`blocked_by`, migration 0019), set in the transaction that
// fails a dependent for the job it runs after: a worker whose own error reads like those words is
// a failure, a real dependent that never ran is blocked, a store of the release that read the words
// migrates with its blocked rows still blocked, and "retry all failed" queues what its count says.
// Real worker processes against a real SQLite file.
import { describe, expect, it } from 'vitest';
import { engineEachTest, enginesEachTest, jobsFinished, tempDir } from '../support/engine.js';
import { releaseBeforeBlockedBy } from '../support/previous-release.js';

const t = engineEachTest();
const lane = (name = 'worker') => t.engine.status().lanes.find((l) => l.name === name)!;

/** A persistent worker that fails each job in the words its payload gives, once (no retry). */
const SAYS_FAILED = `require('readline').createInterface({ input: process.stdin }).on('line', (l) => {
  const m = JSON.parse(l);
  process.stdout.write(JSON.stringify({ id: m.id, ok: false, error: m.payload.error, retry: false }) + '\\n');
});`;

describe('blocked, as the store keeps it', () => {
  it('a worker failing in words like "job 3: upload failed" is failed, not blocked; a dependent that never ran is blocked by its job', async () => {
    await t.engine.request('addLane', { name: 'upload', cap: 1, workerCommand: [process.execPath, '-e', SAYS_FAILED] });
    const own = await t.engine.request('addJobs', { jobs: ['job 3: upload failed', 'job 3 failed'].map((error) => ({ lane: 'upload', payload: { error } })) });
    const ran = await jobsFinished(t.engine, own.ids);
    expect(ran.map((j) => [j.state, j.error, j.blockedBy])).toEqual([
      ['failed', 'job 3: upload failed', undefined],
      ['failed', 'job 3 failed', undefined],
    ]);
    expect(lane('upload')).toMatchObject({ failed: 2, blocked: 0 });

    // A real one: it runs after a job that fails, and never runs.
    const a = await t.engine.request('addJob', { lane: 'upload', payload: { error: 'the disk is full' } });
    const b = await t.engine.request('addJob', { lane: 'upload', payload: { error: 'never said' }, after: [a.id] });
    const [, jb] = await jobsFinished(t.engine, [a.id, b.id]);
    expect(jb).toMatchObject({ state: 'failed', error: `job ${a.id} failed`, blockedBy: a.id, attempts: 0, startedAt: null });
    expect(lane('upload')).toMatchObject({ failed: 3, blocked: 1 });
    const ids = async (input: object) => (await t.engine.request('listJobs', { lane: 'upload', ...input })).jobs.map((j) => j.id);
    expect(await ids({ dependents: 'blocked' })).toEqual([b.id]);
    expect(await ids({ state: 'failed', dependents: 'excluded' })).toEqual([a.id, ...own.ids].sort((x, y) => y - x));
  });

  it('"retry all failed" queues the blocked with the failed, as many as the count the window shows; a queued-again dependent is no longer blocked', async () => {
    await t.engine.request('addLane', { name: 'upload', cap: 1, workerCommand: [process.execPath, '-e', SAYS_FAILED] });
    const a = await t.engine.request('addJob', { lane: 'upload', payload: { error: 'offline' } });
    const b = await t.engine.request('addJob', { lane: 'upload', payload: { error: 'offline' }, after: [a.id] });
    const c = await t.engine.request('addJob', { lane: 'upload', payload: { error: 'offline' } });
    await jobsFinished(t.engine, [a.id, b.id, c.id]);
    const before = lane('upload');
    expect(before).toMatchObject({ failed: 2, blocked: 1 });
    // Stop it running them at once, so what the retry queued can be read as queued.
    await t.engine.request('setCap', { lane: 'upload', cap: 0 });
    const answer = await t.engine.request('retryJobs', { lane: 'upload', state: 'failed' });
    expect(answer.retried + (answer.refused ?? 0)).toBe(before.failed + before.blocked!);
    expect(answer).toEqual({ retried: 3 });
    expect(await t.engine.request('job', { id: b.id })).toMatchObject({ state: 'queued', waitingFor: 1 });
    expect((await t.engine.request('job', { id: b.id })).blockedBy).toBeUndefined();
    expect(lane('upload')).toMatchObject({ failed: 0, blocked: 0 });
  });
});

describe('a store of the release that read blocked from the words', () => {
  const open = enginesEachTest();

  it('migrates with its blocked rows still blocked, and a worker\'s own words that read like them no longer taken for blocked', async () => {
    const dir = tempDir();
    releaseBeforeBlockedBy(dir.dir);
    const engine = await open(dir);
    const job = (id: number) => engine.request('job', { id });
    expect(await job(2)).toMatchObject({ state: 'failed', error: 'job 1 failed', blockedBy: 1 });
    expect(await job(3)).toMatchObject({ state: 'failed', error: 'job 2 failed', blockedBy: 2 });
    for (const id of [1, 4, 5]) expect((await job(id)).blockedBy).toBeUndefined();
    expect(engine.status().lanes.find((l) => l.name === 'worker')).toMatchObject({ failed: 3, blocked: 2 });
    expect((await engine.request('listJobs', { dependents: 'blocked' })).jobs.map((j) => j.id)).toEqual([3, 2]);
  });
});
