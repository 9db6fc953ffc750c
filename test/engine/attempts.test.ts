// One row per attempt, numbered as the job's attempts are: after a person's retry, after a run
// the engine gave back (stopped with it), and on a shared lane whose engine died mid-run.
import { describe, expect, it } from 'vitest';
import { withCutShort } from '../../electron/engine/shared-lanes/job-data.js';
import type { AttemptRecord } from '../../shared/model.js';
import { engineEachTest, jobsFinished, nextEvent } from '../support/engine.js';

const t = engineEachTest({ cores: 3 });

describe('attempt history, against a real engine', () => {
  it('after a retry: distinct attempt numbers, each with its own outcome', async () => {
    const { id } = await t.engine.request('addJob', { shell: 'echo no >&2; exit 4', maxAttempts: 1 });
    await jobsFinished(t.engine, [id]);
    await t.engine.request('retry', { id });
    await jobsFinished(t.engine, [id]);
    const job = await t.engine.request('job', { id });
    expect(job.history.map((a) => a.attempt)).toEqual([1, 2]);
    expect(job).toMatchObject({ state: 'failed', attempts: 2, maxAttempts: 2 });
  });

  it('a run the engine gave back as it stopped keeps its number; the next run is the next attempt, none spent', async () => {
    const running = nextEvent(t.engine, (e) => e.type === 'job' && e.data.state === 'running');
    const { id } = await t.engine.request('addJob', { shell: '[ -e again ] || { touch again; sleep 60; }', cwd: t.dir, maxAttempts: 1 });
    await running;
    const engine = await t.restart();
    const [done] = await jobsFinished(engine, [id]);
    const job = await engine.request('job', { id });
    expect(done!.state).toBe('succeeded');
    expect(job.history).toMatchObject([{ attempt: 1, outcome: 'interrupted' }]);
    expect(job).toMatchObject({ attempts: 2, maxAttempts: 2 });
  });
});

describe('a shared lane’s attempts cut short', () => {
  const failed = (attempt: number): AttemptRecord => ({ attempt, startedAt: 1, finishedAt: 2, outcome: 'failed', exitCode: 1, error: 'exit 1' });
  const rows: { name: string; history: AttemptRecord[]; f: Parameters<typeof withCutShort>[1]; want: [number, string, string?][] }[] = [
    { name: 'the finding: 2 attempts, no records, queued again after its engine died', history: [], f: { attempts: 2, state: 'queued', machine: 'box-a', at: 5 }, want: [[1, 'interrupted'], [2, 'interrupted', 'box-a']] },
    { name: 'running its second attempt after the first was cut short', history: [], f: { attempts: 2, state: 'running', machine: 'box-b', at: 5 }, want: [[1, 'interrupted']] },
    { name: 'a failure recorded, then a cut-short one, then success', history: [failed(1)], f: { attempts: 3, state: 'succeeded', at: 5 }, want: [[1, 'failed'], [2, 'interrupted']] },
    { name: 'every attempt recorded: nothing added', history: [failed(1), failed(2)], f: { attempts: 2, state: 'failed', at: 5 }, want: [[1, 'failed'], [2, 'failed']] },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const got = withCutShort(r.history, r.f);
      expect(got.map((a) => [a.attempt, a.outcome, ...(a.machine ? [a.machine] : [])])).toEqual(r.want);
      for (const a of got.filter((x) => x.outcome === 'interrupted')) expect(a.error).toMatch(/cut short.*lock/);
    });
  }
});
