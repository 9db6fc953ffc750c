// A lane with a persistent worker command: started once, one JSON line per job.
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { appRoot } from '../../electron/paths/app-files.js';
import { engineEachTest, jobsFinished, until } from '../support/engine.js';

const example = ['python3', join(appRoot, 'examples', 'word_stats_worker.py')];
const t = engineEachTest();
beforeEach(() => t.engine.request('addLane', { name: 'words', class: 'ml', cap: 1, workerCommand: example }));

describe('persistent worker lanes', () => {
  it('start the command once and send it every job', async () => {
    const { ids } = await t.engine.request('addJobs', {
      jobs: ['the cat sat on the mat', 'a dog and a cat', 'cat cat dog'].map((text) => ({ lane: 'words', payload: { text } })),
    });
    const jobs = await jobsFinished(t.engine, ids);
    expect(jobs.map((j) => j.state)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    const results = jobs.map((j) => j.result as { words: number; top: [string, number][]; pid: number });
    expect(results.map((r) => r.words)).toEqual([6, 5, 3]);
    expect(results[2]!.top[0]).toEqual(['cat', 2]);
    expect(new Set(results.map((r) => r.pid)).size).toBe(1);
  });

  it('records a job the command refuses as failed, keeps what it printed, and carries on', async () => {
    const bad = await t.engine.request('addJob', { lane: 'words', payload: { nope: 1 }, maxAttempts: 1 });
    const chatty = await t.engine.request('addJob', { lane: 'words', payload: { text: 'hi', say: 'loading done' } });
    const [b, c] = await jobsFinished(t.engine, [bad.id, chatty.id]);
    expect(b).toMatchObject({ state: 'failed', error: 'payload must be an object with a "text" string' });
    expect(c!.state).toBe('succeeded');
    expect((await t.engine.request('logTail', { id: chatty.id })).text).toBe('loading done\n');
    expect((await t.engine.request('logTail', { id: chatty.id, stream: 'stderr' })).text).toBe('loading done\n');
  });

  it('a payload the worker refuses with "retry": false fails at once, on attempt 1, in its words; another failure is retried', async () => {
    const refused = await t.engine.request('addJob', { lane: 'words', payload: { text: 42 } });
    const [r] = await jobsFinished(t.engine, [refused.id]);
    expect(r).toMatchObject({ state: 'failed', attempts: 1, maxAttempts: 3, error: 'payload must be an object with a "text" string' });
    const shown = await t.engine.request('job', { id: refused.id });
    expect(shown.history.map((a) => a.error)).toEqual(['payload must be an object with a "text" string']);
    // A failure the worker does not call final (here a bad sleep value) is retried as before.
    const flaky = await t.engine.request('addJob', { lane: 'words', payload: { text: 'x', sleep: 'soon' }, maxAttempts: 2 });
    const [f] = await jobsFinished(t.engine, [flaky.id], 30_000);
    expect(f).toMatchObject({ state: 'failed', attempts: 2 });
  });

  it('cancelling a running job restarts the command for the next one', async () => {
    const slow = await t.engine.request('addJob', { lane: 'words', payload: { text: 'x', sleep: 30 } });
    const next = await t.engine.request('addJob', { lane: 'words', payload: { text: 'y' } });
    await until(t.engine, () => t.engine.status().lanes.find((l) => l.name === 'words')!.busy === 1, 10_000, 'busy');
    await t.engine.request('cancel', { id: slow.id });
    const [s, n] = await jobsFinished(t.engine, [slow.id, next.id]);
    expect(s!.state).toBe('cancelled');
    expect(n!.state).toBe('succeeded');
  });

  it('run the command where it was given, so a relative script path works', async () => {
    await t.engine.request('addLane', { name: 'rel', cap: 1, workerCommand: ['python3', 'examples/word_stats_worker.py'], workerCwd: appRoot });
    const { id } = await t.engine.request('addJob', { lane: 'rel', payload: { text: 'one two' } });
    expect((await jobsFinished(t.engine, [id]))[0]).toMatchObject({ state: 'succeeded', result: { words: 2 } });
    await expect(t.engine.request('addLane', { name: 'bad', workerCommand: ['x'], workerCwd: 'relative/t.dir' })).rejects.toThrow(/existing absolute directory/);
  });

  it('a shell command sent to a persistent lane is refused', async () => {
    await expect(t.engine.request('addJob', { lane: 'words', argv: ['true'] })).rejects.toThrow(/give it a payload/);
  });

  it('an answer that also carries a progress key is the answer, not a report', async () => {
    // Answers each job with its result and, beside it, a last word on how far it got.
    const answerer = `require('readline').createInterface({ input: process.stdin }).on('line', (l) => {
      const { id } = JSON.parse(l);
      process.stdout.write(JSON.stringify({ id, ok: true, result: { id }, progress: 1 }) + '\\n');
    });`;
    await t.engine.request('addLane', { name: 'both', class: 'ml', cap: 1, workerCommand: [process.execPath, '-e', answerer] });
    const { id } = await t.engine.request('addJob', { lane: 'both', payload: {} });
    const [j] = await jobsFinished(t.engine, [id]);
    expect(j).toMatchObject({ state: 'succeeded', result: { id } });
  });
});
