// An addJobs of thousands is checked a slice at a time between turns of the event loop, and is
// refused exactly as one checked whole would be: the same words, the field counted from the whole
// batch (jobs.2345.argv), nothing stored. A good one is stored whole, in the order given. Real engine.
import { describe, expect, it } from 'vitest';
import { engineEachTest } from '../support/engine.js';
import type { LanesError } from '../../shared/errors.js';
import type { JobSummary } from '../../shared/model.js';

const t = engineEachTest();
const N = 2_500;

const batch = (n: number, bad: Record<number, unknown> = {}) => Array.from({ length: n }, (_, i) => bad[i] ?? { argv: ['echo', String(i)], delaySeconds: 3600 });

async function refusal(jobs: unknown[]): Promise<LanesError> {
  const error = await t.engine.request('addJobs', { jobs } as never).then(
    () => null,
    (e: unknown) => e as LanesError,
  );
  expect(error).not.toBeNull();
  return error!;
}

describe('a batch of thousands', () => {
  it('a bad job past the first slices: refused as a small batch is, its field counted from the whole, and nothing stored', async () => {
    const cases: [unknown, string][] = [
      [{ argv: [] }, 'argv'],
      [{ argv: ['true'], colour: 'red' }, 'colour'],
      [JSON.parse('{"argv":["true"],"env":{"__proto__":"x"}}'), 'env.__proto__'],
      [{ argv: ['echo', '\ud800'] }, 'argv.1'],
    ];
    for (const [job, field] of cases) {
      const small = await refusal(batch(3, { 2: job }));
      expect(small.field).toBe(`jobs.2.${field}`);
      for (const at of [1_000, 2_345]) {
        const big = await refusal(batch(N, { [at]: job }));
        expect(big.code).toBe(small.code);
        expect(big.field).toBe(`jobs.${at}.${field}`);
        expect(big.message).toBe(small.message.replace(/\bjobs\.2\b/g, `jobs.${at}`));
      }
    }
    expect((await t.engine.request('listJobs', { limit: 1 })).total).toBe(0);
  });

  it('a good one: every job stored, in the order given', async () => {
    const { ids } = await t.engine.request('addJobs', { jobs: batch(N) });
    expect(ids).toHaveLength(N);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    for (const at of [0, 1_000, N - 1]) expect((await t.engine.request('job', { id: ids[at]! })).command).toBe(`echo ${at}`);
    expect((await t.engine.request('listJobs', { state: 'queued', limit: 1 })).total).toBe(N);
  });

  it('a batch of a hundred: each job event carries the job as the store reads it back', async () => {
    const events: JobSummary[] = [];
    const off = t.engine.events.subscribe((e) => {
      if (e.type === 'job') events.push(e.data);
    });
    const jobs = Array.from({ length: 100 }, (_, i) => ({ argv: ['echo', String(i)], delaySeconds: 3600, priority: i % 3, ...(i % 2 ? { labels: ['odd', `n${i}`] } : {}), maxAttempts: 1 + (i % 4), timeoutSeconds: 60 }));
    const { ids } = await t.engine.request('addJobs', { jobs });
    off();
    const stored = (await t.engine.request('listJobs', { limit: 100, order: 'oldest' })).jobs;
    expect(stored.map((j) => j.id)).toEqual(ids);
    expect(events).toEqual(stored);
  });
});
