// The Run after field's rules, table by table: what typed text is a list of ids, and which found
// jobs are offered — only those that can still succeed, never the job itself nor one already
// chosen, in the order found and no more than a short list.
import { describe, expect, it } from 'vitest';
import type { JobState, JobSummary } from '../../shared/model.js';
import { AFTER_OFFERED, canStillSucceed, notOffered, offered, typedIds } from '../../renderer/after-picker.js';

const job = (id: number, state: JobState = 'queued'): JobSummary => ({
  id, lane: 'worker', command: `job ${id}`, state, attempts: 0, maxAttempts: 3, createdAt: 0, startedAt: null, finishedAt: null, exitCode: null, error: null, runAfter: null,
});

describe('typed ids', () => {
  it.each([
    ['41', [41]],
    ['41, 42 43', [41, 42, 43]],
    ['#41;#42', [41, 42]],
    [' 41\n41 ', [41]],
    ['0', null],
    ['make 41', null],
    ['41a', null],
    ['', null],
    ['4.1', null],
  ])('"%s" reads as %j', (text, ids) => {
    expect(typedIds(text)).toEqual(ids);
  });
});

describe('what is offered', () => {
  it('only jobs that can still succeed: a failed or cancelled one never', () => {
    expect((['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const).map((s) => canStillSucceed(job(1, s)))).toEqual([true, true, true, false, false]);
    const found = [job(9, 'failed'), job(8, 'succeeded'), job(7, 'cancelled'), job(6, 'running'), job(5)];
    expect(offered(found, [], null).map((j) => j.id)).toEqual([8, 6, 5]);
  });

  it('never the job being edited nor one already set, and in the order found, whatever came first', () => {
    const found = [job(9), job(3), job(7), job(5)];
    expect(offered(found, [7], 3).map((j) => j.id)).toEqual([9, 5]);
    // A pick takes only that one out: the rest keep their places.
    expect(offered(found, [7, 9], 3).map((j) => j.id)).toEqual([5]);
    expect(offered([job(4), job(4)], [], null)).toHaveLength(1);
  });

  it('a short list, not a second job list', () => {
    const many = Array.from({ length: 40 }, (_, i) => job(100 - i));
    expect(offered(many, [], null)).toHaveLength(AFTER_OFFERED);
  });

  it('says why a typed id is not offered, in the engine’s terms', () => {
    expect(notOffered(job(41, 'failed'), null)).toBe('job 41 failed, so a job after it would never run');
    expect(notOffered(job(41, 'cancelled'), null)).toBe('job 41 was cancelled, so a job after it would never run');
    expect(notOffered(job(41), 41)).toBe('job 41 is this job');
    expect(notOffered(job(41, 'succeeded'), null)).toBeNull();
  });
});
