// Retention's parts on their own: the pure policy (spans, periods, which logs go past the bound)
// as tables; the store's cleaner and its space on a real SQLite file; a job's log files as the
// worker writes them (one file for a job that writes one stream).
import Database from 'better-sqlite3';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrationsDir } from '../../electron/paths/app-files.js';
import { openDatabase, type Db } from '../../electron/engine/store/db.js';
import { JobCounts } from '../../electron/engine/store/counts.js';
import { JobCleaner } from '../../electron/engine/store/cleaning.js';
import { StoreSpace } from '../../electron/engine/store/space.js';
import { cutoffs, DEFAULT_KEEP, keepFromEnv, logsToTrim, nextPassInMs, passEveryMs, TIMER_MAX_MS } from '../../electron/engine/retention/policy.js';
import { LogFiles } from '../../electron/engine/retention/log-files.js';
import { Retention } from '../../electron/engine/retention/retention.js';
import { EventHub } from '../../electron/engine/event-hub.js';
import { JobStore } from '../../electron/engine/store/jobs.js';
import { JobLogs } from '../../electron/worker/job-logs.js';
import { logSpanFor } from '../../electron/job-control/log-paths.js';
import { parseSpan } from '../../shared/span.js';
import { tempDir } from '../support/engine.js';

let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempDir()));
afterEach(() => cleanup());

describe('retention policy', () => {
  it.each([
    ['30d', 30 * 86_400_000],
    ['12h', 12 * 3_600_000],
    ['5s', 5_000],
    ['1h30m', 5_400_000],
    ['2w', 14 * 86_400_000],
  ])('reads the span %s', (text, ms) => expect(parseSpan(text)).toEqual({ ms }));

  it.each(['', 'soon', '5x', '-3s', '0s', '4000w', '5 s s', '90', '30'])('refuses the span %j in words', (text) => {
    expect(parseSpan(text)).toHaveProperty('problem');
  });

  it('keeps 14 days succeeded and 30 failed or cancelled, unless LANES_KEEP says one span for all', () => {
    expect(keepFromEnv({})).toEqual(DEFAULT_KEEP);
    expect(DEFAULT_KEEP).toEqual({ succeeded: 14 * 86_400_000, failed: 30 * 86_400_000, cancelled: 30 * 86_400_000 });
    expect(keepFromEnv({ LANES_KEEP: '5s' })).toEqual({ succeeded: 5_000, failed: 5_000, cancelled: 5_000 });
    expect(() => keepFromEnv({ LANES_KEEP: 'forever' })).toThrow(/^LANES_KEEP: a span is a number and a unit: s, m, h, d or w/);
    expect(cutoffs({ succeeded: 10, failed: 20, cancelled: 30 }, 100)).toEqual({ succeeded: 90, failed: 80, cancelled: 70 });
  });

  it.each([
    [5_000, 1_250],
    [2_000, 1_000],
    [86_400_000, 60_000],
  ])('passes every quarter of a %d ms keep, within 1 s and a minute', (keep, every) => {
    expect(passEveryMs({ succeeded: keep, failed: keep * 2, cancelled: keep * 2 })).toBe(every);
  });

  const DAY = 86_400_000;
  const NOW = 10 * DAY;
  it.each([
    ['jobs finished since the last pass: the next at the pass period', true, NOW - DAY, 60_000],
    ['none finished, no job at all: none until one finishes', false, null, null],
    ['none finished: when the oldest job could first be past its keep (the shortest keep after its queueing)', false, NOW - DAY / 4, DAY / 4],
    ['none finished, the oldest already due: no sooner than the pass period', false, NOW - DAY, 60_000],
    ['none finished, due past what a timer waits: looked at again then', false, NOW + 60 * DAY, TIMER_MAX_MS],
  ] as const)('%s', (_what, jobsFinished, oldestQueuedAt, want) => {
    const keep = { succeeded: DAY / 2, failed: DAY, cancelled: DAY };
    expect(nextPassInMs(keep, { jobsFinished, oldestQueuedAt, now: NOW })).toBe(want);
  });

  const files = [
    { id: 1, bytes: 40 },
    { id: 1, bytes: 10 },
    { id: 2, bytes: 30 },
    { id: 3, bytes: 30 },
    { id: 4, bytes: 20 },
  ];
  it.each([
    ['within the bound: nothing', 130, [1, 2, 3, 4], []],
    ['the oldest finished first, all of a job at once, to 90 % of the bound', 100, [1, 2, 3, 4], [1]],
    ['deeper over', 40, [1, 2, 3, 4], [1, 2, 3]],
    ['an unfinished job keeps its logs', 100, [2, 3, 4], [2, 3]],
    ['nothing finished: nothing goes', 10, [], []],
  ])('logs over their bound: %s', (_what, max, finished, trimmed) => {
    expect(logsToTrim(files, new Set(finished), max)).toEqual(trimmed);
  });
});

describe('the store cleaner', () => {
  let db: Db;
  let counts: JobCounts;
  beforeEach(() => {
    db = openDatabase(dir, migrationsDir);
    counts = new JobCounts(db);
  });
  afterEach(() => db.close());

  const insert = (state: string, finishedAt: number | null, lane = 'worker') =>
    Number(db.prepare("INSERT INTO jobs (lane, spec, state, created_at, finished_at) VALUES (?, '{\"kind\":\"argv\",\"argv\":[\"true\"]}', ?, 1, ?)").run(lane, state, finishedAt).lastInsertRowid);
  const left = () => (db.prepare('SELECT id FROM jobs ORDER BY id').all() as { id: number }[]).map((r) => r.id);

  it('removes only finished jobs past their cut-off, keeping a record of each, never a queued or running one', () => {
    const old = [insert('succeeded', 10), insert('failed', 10), insert('cancelled', 10)];
    const unfinished = [insert('queued', null), insert('running', null)];
    const recent = insert('succeeded', 500);
    const failedBetween = insert('failed', 200);
    // A failed run waiting for its retry is queued, with run_after set.
    db.prepare("UPDATE jobs SET run_after = 999 WHERE id = ?").run(unfinished[0]);
    const cleaner = new JobCleaner(db, counts);
    const removed = [];
    for (let from: number | null = 0; from !== null; ) {
      const r = cleaner.chunk({ before: { succeeded: 100, failed: 300, cancelled: 100 } }, from, 1_000);
      removed.push(...r.removed);
      from = r.next;
    }
    expect(removed.map((r) => r.id)).toEqual([...old, failedBetween]);
    expect(left()).toEqual([...unfinished, recent]);
    expect(cleaner.find(old[1]!)).toEqual({ id: old[1], lane: 'worker', state: 'failed', exitCode: null, finishedAt: 10, cleanedAt: 1_000 });
    expect(cleaner.find(recent)).toBeUndefined();
  });

  it('chooses by lane, and keeps its compact records within their bound', () => {
    db.prepare("INSERT INTO lanes (name, class, cap, created_at) VALUES ('b', 'cpu', 1, 1)").run();
    const a = insert('succeeded', 10);
    const b = insert('succeeded', 10, 'b');
    const cleaner = new JobCleaner(db, counts);
    expect(cleaner.chunk({ lane: 'b', before: { succeeded: 100 } }, 0, 1).removed.map((r) => r.id)).toEqual([b]);
    expect(left()).toEqual([a]);
    expect(cleaner.bound()).toBe(0);
    expect(cleaner.finishedAmong([a, b, 999])).toEqual(new Set([a]));
  });

  it('gives the space of removed rows back to the disk', () => {
    const space = new StoreSpace(db);
    expect(space.incremental).toBe(true);
    const big = JSON.stringify({ kind: 'argv', argv: ['echo', 'x'.repeat(2_000)] });
    db.transaction(() => {
      for (let i = 0; i < 5_000; i++) db.prepare("INSERT INTO jobs (lane, spec, state, created_at, finished_at) VALUES ('worker', ?, 'succeeded', 1, 1)").run(big);
    })();
    space.checkpoint();
    const full = db.pragma('page_count', { simple: true }) as number;
    const cleaner = new JobCleaner(db, counts);
    for (let from: number | null = 0; from !== null; ) from = cleaner.chunk({ before: { succeeded: 2 } }, from, 5).next;
    expect(space.freePages).toBeGreaterThan(0);
    while (space.step()) {
      // a step at a time, as a pass takes them
    }
    space.checkpoint();
    expect(db.pragma('page_count', { simple: true }) as number).toBeLessThan(full / 4);
  });

  it('switches an older database to incremental auto-vacuum once it is small', () => {
    db.close();
    const file = join(dir, 'old', 'lanes.db');
    mkdirSync(join(dir, 'old'));
    const old = new Database(file);
    old.exec('CREATE TABLE t (x)');
    const space = new StoreSpace(old);
    expect(space.incremental).toBe(false);
    expect(space.switchIfSmall()).toBe(true);
    expect(space.incremental).toBe(true);
    old.close();
    db = openDatabase(dir, migrationsDir);
  });
});

describe('log files', () => {
  it('keeps one file for a job that writes one stream, and one once a job that wrote both ends', () => {
    const logs = new LogFiles(dir);
    const one = logs.paths(1234);
    expect(one.stdoutPath).toBe(join(dir, 'logs', '1', '1234.stdout.log'));
    const a = new JobLogs({ attempt: 1, ...one }, 1 << 20);
    a.stdout.write('hello\n');
    a.close();
    expect(readdirSync(join(dir, 'logs', '1'))).toEqual(['1234.stdout.log']);
    expect(logSpanFor(one, 'all')).toEqual({ path: one.stdoutPath, start: 0, size: null });

    const two = logs.paths(1235);
    const b = new JobLogs({ attempt: 1, ...two }, 1 << 20);
    b.stdout.write('out\n');
    b.stderr.write('err\n');
    b.stdout.write('more\n');
    expect(readdirSync(join(dir, 'logs', '1')).sort()).toEqual(['1234.stdout.log', '1235.log', '1235.stderr.log', '1235.stdout.log']);
    b.close();
    expect(readdirSync(join(dir, 'logs', '1')).sort()).toEqual(['1234.stdout.log', '1235.logs']);
    const text = (stream: 'stdout' | 'stderr' | 'all') => {
      const span = logSpanFor(two, stream);
      return readFileSync(span.path).subarray(span.start, span.start + span.size!).toString('utf8');
    };
    expect([text('stdout'), text('stderr'), text('all')]).toEqual(['out\nmore\n', 'err\n', 'out\nerr\nmore\n']);
  });

  it('removes the logs of cleaned jobs, and a folder once it is empty', async () => {
    const logs = new LogFiles(dir);
    for (const id of [5, 6]) {
      const l = new JobLogs({ attempt: 1, ...logs.paths(id) }, 1 << 20);
      l.stderr.write(`job ${id}\n`);
      l.close();
    }
    expect(await logs.remove([5])).toBe(1);
    expect(existsSync(logs.paths(6).stderrPath)).toBe(true);
    expect((await logs.list()).map((f) => f.id)).toEqual([6]);
    await logs.remove([6]);
    expect(existsSync(join(dir, 'logs', '0'))).toBe(false);
  });
});

describe('a retention pass', () => {
  it('keeps all logs within their bound, the oldest finished jobs\' first, and their records say so', async () => {
    const db = openDatabase(dir, migrationsDir);
    const counts = new JobCounts(db);
    const store = new JobStore(db, counts, join(dir, 'lanes.db-wal'));
    const logs = new LogFiles(dir);
    const add = (state: string) =>
      Number(db.prepare("INSERT INTO jobs (lane, spec, state, created_at, finished_at) VALUES ('worker', '{\"kind\":\"argv\",\"argv\":[\"true\"]}', ?, ?, ?)").run(state, Date.now(), state === 'running' ? null : Date.now()).lastInsertRowid);
    // Ten jobs, none past its keep of 8 kB of output each; the oldest is still running.
    const ids = [add('running'), ...Array.from({ length: 9 }, () => add('succeeded'))];
    for (const id of ids) {
      const l = new JobLogs({ attempt: 1, ...logs.paths(id) }, 1 << 20);
      l.stdout.write('x'.repeat(8_000));
      l.close();
    }
    const retention = new Retention({ cleaner: new JobCleaner(db, counts), space: new StoreSpace(db), logs, events: new EventHub(1), keep: DEFAULT_KEEP, logsMaxBytes: 40_000, changed: () => {}, log: () => {} });
    await retention.pass();
    const kept = new Set((await logs.list()).map((f) => f.id));
    const trimmed = ids.filter((id) => !kept.has(id));
    // Within 90 % of 40 kB, 8 kB a job: four kept, the running one among them.
    expect(trimmed).toEqual(ids.slice(1, 7));
    expect(kept).toEqual(new Set([ids[0], ...ids.slice(7)]));
    for (const id of trimmed) expect(store.get(id)?.logsTrimmed).toBe(true);
    expect(store.get(ids[9]!)?.logsTrimmed).toBeUndefined();
    // The jobs themselves are kept: only their logs went.
    expect(store.get(ids[1]!)?.state).toBe('succeeded');
    await retention.stop();
    await store.close();
    db.close();
  });
});
