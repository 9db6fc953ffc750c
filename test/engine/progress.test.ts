// How a job's report of how far it has got is read (shared/progress.ts), relayed by its worker
// (worker/progress-relay.ts) and written by the engine (status/progress-board.ts): one row per
// rule, on a fake clock where a rule is about time.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { progressFromArgs, progressWords, readProgress } from '../../shared/progress.js';
import { ProgressRelay } from '../../electron/worker/progress-relay.js';
import { ProgressBoard } from '../../electron/engine/status/progress-board.js';
import { PROGRESS_SEND_MS } from '../../electron/worker-protocol/protocol.js';
import type { JobProgress, JobSummary } from '../../shared/model.js';

describe('reading a report', () => {
  const rows: [string, unknown, ReturnType<typeof readProgress>][] = [
    ['done of total', { done: 3, total: 4, message: 'step three' }, { ok: true, report: { fraction: 0.75, done: 3, total: 4, message: 'step three' } }],
    ['a fraction', { fraction: 0.3 }, { ok: true, report: { fraction: 0.3 } }],
    ['a bare number is a fraction', 1, { ok: true, report: { fraction: 1 } }],
    ['done above total', { done: 5, total: 4 }, { ok: false, why: 'progress done (5) is more than its total (4)' }],
    ['a total of 0', { done: 0, total: 0 }, { ok: false, why: 'progress total must be more than 0' }],
    ['done without total', { done: 3 }, { ok: false, why: 'progress done and total must both be numbers of at least 0' }],
    ['a negative count', { done: -1, total: 4 }, { ok: false, why: 'progress done and total must both be numbers of at least 0' }],
    ['a fraction above 1', { fraction: 1.5 }, { ok: false, why: 'progress fraction must be a number from 0 to 1' }],
    ['not a number', { fraction: 'half' }, { ok: false, why: 'progress fraction must be a number from 0 to 1' }],
    ['a string', 'lots', { ok: false, why: 'progress must be a number from 0 to 1 or an object' }],
    ['an array', [1, 2], { ok: false, why: 'progress must be a number from 0 to 1 or an object' }],
    ['a message that is not words', { fraction: 0.1, message: 7 }, { ok: false, why: 'progress message must be a string' }],
    ['a blank message is none', { fraction: 0.1, message: '  ' }, { ok: true, report: { fraction: 0.1 } }],
  ];
  for (const [name, value, expected] of rows) it(name, () => expect(readProgress(value)).toEqual(expected));

  it('keeps a message to one line of at most 200 characters', () => {
    const r = readProgress({ fraction: 0.5, message: `a\nb\u0007${'x'.repeat(400)}` });
    expect(r.ok && r.report.message).toMatch(/^a b x+…$/);
    expect(r.ok && r.report.message!.length).toBe(200);
  });

  const args: [string, string[], ReturnType<typeof readProgress>['ok'], number?][] = [
    ['12000/40000', ['embedding'], true, 0.3],
    ['30%', [], true, 0.3],
    ['0.3', [], true, 0.3],
    ['.5', [], true, 0.5],
    ['5/4', [], false],
    ['120%', [], false],
    ['lots', [], false],
    ['-1', [], false],
  ];
  for (const [amount, words, ok, fraction] of args) {
    it(`lanes progress ${amount} ${words.join(' ')}`.trim(), () => {
      const r = progressFromArgs(amount, words);
      expect(r.ok).toBe(ok);
      if (r.ok) expect(r.report.fraction).toBeCloseTo(fraction!);
    });
  }

  it('is said one way', () => {
    expect(progressWords({ fraction: 0.3, done: 12000, total: 40000, message: 'embedding', at: 0 })).toBe('12,000 of 40,000 (30 %) — embedding');
    expect(progressWords({ fraction: 0.999, at: 0 })).toBe('99 %');
    expect(progressWords({ fraction: 1, at: 0 })).toBe('100 %');
  });
});

describe('the worker’s relay', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('passes the latest report on at most once per PROGRESS_SEND_MS, and the last before the job ends', () => {
    const sent: unknown[] = [];
    const relay = new ProgressRelay((m) => sent.push(m), () => Date.now());
    relay.begin({ id: 7, attempt: 1 });
    for (let i = 1; i <= 10_000; i++) relay.report({ done: i, total: 10_000 });
    // The first goes at once, the rest wait for their moment and only the latest of them goes.
    expect(sent).toHaveLength(1);
    vi.advanceTimersByTime(PROGRESS_SEND_MS);
    expect(sent).toHaveLength(2);
    expect(sent[1]).toMatchObject({ t: 'progress', jobId: 7, attempt: 1, progress: { done: 10_000 }, ignored: 0 });
    relay.report({ done: 5, total: 10_000 });
    relay.end();
    expect(sent).toHaveLength(3);
    expect(sent[2]).toMatchObject({ progress: { done: 5 } });
    // Nothing after the job ended: the next job's reports are its own.
    expect(relay.report({ fraction: 0.5 })).toBe('no job is running');
    vi.advanceTimersByTime(10 * PROGRESS_SEND_MS);
    expect(sent).toHaveLength(3);
  });

  it('counts what it cannot read, and sends the count with the next report it can', () => {
    const sent: { ignored: number }[] = [];
    const relay = new ProgressRelay((m) => sent.push(m), () => Date.now());
    relay.begin({ id: 7, attempt: 2 });
    expect(relay.report('lots')).toBe('progress must be a number from 0 to 1 or an object');
    expect(relay.report({ fraction: 0.5 }, 8)).toBe('job 8 is not the one running');
    expect(sent).toHaveLength(0);
    expect(relay.report({ fraction: 0.5 }, 7)).toBeNull();
    expect(sent).toEqual([{ t: 'progress', jobId: 7, attempt: 2, progress: { fraction: 0.5 }, ignored: 2 }]);
  });
});

describe('the engine’s board', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const summary = (id: number, progress: JobProgress): JobSummary => ({ id, lane: 'worker', command: 'x', state: 'running', attempts: 1, maxAttempts: 3, createdAt: 0, startedAt: 0, finishedAt: null, exitCode: null, error: null, runAfter: null, progress });

  it('writes and announces the latest of each job together, and a run’s ignored reports add up', () => {
    const writes: { id: number; progress: JobProgress }[][] = [];
    const announced: JobSummary[] = [];
    const board = new ProgressBoard({
      write: (reports) => (writes.push(reports), reports.map((r) => summary(r.id, r.progress))),
      local: (lane) => lane !== 'shared',
      announce: (s) => announced.push(s),
      now: () => 1000,
      log: () => {},
      flushMs: 250,
    });
    board.heard({ jobId: 1, attempt: 1, lane: 'worker', progress: { fraction: 0.1 }, ignored: 2 });
    board.heard({ jobId: 1, attempt: 1, lane: 'worker', progress: { fraction: 0.2 }, ignored: 1 });
    board.heard({ jobId: 2, attempt: 1, lane: 'worker', progress: { fraction: 0.5 }, ignored: 0 });
    board.heard({ jobId: 3, attempt: 1, lane: 'shared', progress: { fraction: 0.5 }, ignored: 0 });
    expect(writes).toHaveLength(0);
    vi.advanceTimersByTime(250);
    expect(writes).toEqual([
      [
        { id: 1, attempt: 1, progress: { fraction: 0.2, at: 1000, ignored: 3 } },
        { id: 2, attempt: 1, progress: { fraction: 0.5, at: 1000 } },
      ],
    ]);
    expect(announced.map((s) => s.id)).toEqual([1, 2]);
    // A new run counts afresh.
    board.heard({ jobId: 1, attempt: 2, lane: 'worker', progress: { fraction: 0.1 }, ignored: 0 });
    board.flush();
    expect(writes[1]).toEqual([{ id: 1, attempt: 2, progress: { fraction: 0.1, at: 1000 } }]);
  });

  it('a write that fails drops those reports and says so; the engine goes on', () => {
    const lines: string[] = [];
    const board = new ProgressBoard({ write: () => { throw new Error('database or disk is full'); }, local: () => true, announce: () => {}, now: () => 0, log: (l) => lines.push(l) });
    board.heard({ jobId: 1, attempt: 1, lane: 'worker', progress: { fraction: 0.1 }, ignored: 0 });
    board.flush();
    expect(lines).toEqual(['progress of 1 job was not written: database or disk is full']);
  });
});
