// A job's number is its own for ever, where retention, ids and dependencies meet: on a real SQLite
// file, with the store's own parts and with real engines running real commands. Ids are never
// given twice (cleaned, all cleaned, a database of the previous release, ids only a log file
// names); cleaning cut short leaves nothing behind for long; every dependent ends; a cleaned job
// answers with its record and nothing more.
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrationsDir } from '../../electron/paths/app-files.js';
import { openDatabase, type Db } from '../../electron/engine/store/db.js';
import { JobCounts } from '../../electron/engine/store/counts.js';
import { JobCleaner } from '../../electron/engine/store/cleaning.js';
import { JobStore } from '../../electron/engine/store/jobs.js';
import { StoreSpace } from '../../electron/engine/store/space.js';
import { LogFiles } from '../../electron/engine/retention/log-files.js';
import { Retention } from '../../electron/engine/retention/retention.js';
import { DEFAULT_KEEP } from '../../electron/engine/retention/policy.js';
import { EventHub } from '../../electron/engine/event-hub.js';
import type { Engine } from '../../electron/engine/index.js';
import { LanesError } from '../../shared/errors.js';
import { jobsFinished, startEngine, tempDir } from '../support/engine.js';
import { previousRelease, writeLogFile } from '../support/previous-release.js';

let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempDir()));
afterEach(() => cleanup());

const SPEC = '{"kind":"argv","argv":["true"]}';
const walkAll = (cleaner: JobCleaner, before: number, now = Date.now()) => {
  const failed = [];
  for (let from: number | null = 0; from !== null; ) {
    const r = cleaner.chunk({ before: { succeeded: before, failed: before, cancelled: before } }, from, now);
    failed.push(...r.failed);
    from = r.next;
  }
  return failed;
};
/** A log file as a worker leaves it. */
const logFile = (id: number, text: string, ext = 'stdout.log') => writeLogFile(dir, id, text, ext);
/** Rejects with the engine's LanesError. */
const refusal = async (p: Promise<unknown>): Promise<LanesError> => {
  try {
    await p;
  } catch (error) {
    if (error instanceof LanesError) return error;
    throw error;
  }
  throw new Error('it was not refused');
};

describe('job ids', () => {
  let db: Db;
  let store: JobStore;
  let cleaner: JobCleaner;
  beforeEach(() => {
    db = openDatabase(dir, migrationsDir);
    const counts = new JobCounts(db);
    store = new JobStore(db, counts, join(dir, 'lanes.db-wal'));
    cleaner = new JobCleaner(db, counts, store.waits);
  });
  afterEach(() => db.close());
  const add = async (n = 1) => (await store.enqueue(Array.from({ length: n }, () => ({ lane: 'worker', spec: { kind: 'argv' as const, argv: ['true'] }, maxAttempts: 1, timeoutMs: null })), Date.now())).map((j) => j.id);
  const finishAll = () => db.prepare("UPDATE jobs SET state = 'succeeded', finished_at = 1 WHERE state = 'queued'").run();

  it('never hands out an id twice: not once the newest are cleaned, not once all are', async () => {
    const first = await add(3);
    expect(first).toEqual([1, 2, 3]);
    finishAll();
    expect(walkAll(cleaner, Date.now() + 1_000)).toEqual([]);
    // Everything is gone, the compact records too (past their bound): SQLite's own counter still knows 3 was given.
    db.prepare('DELETE FROM cleaned_jobs').run();
    expect(db.prepare('SELECT count(*) AS n FROM jobs').get()).toEqual({ n: 0 });
    expect(await add(2)).toEqual([4, 5]);
    finishAll();
    walkAll(cleaner, Date.now() + 1_000);
    expect(cleaner.find(5)).toMatchObject({ id: 5, state: 'succeeded' });
    expect(await add()).toEqual([6]);
  });
});

describe('a database made by the previous release', () => {
  it('counts on above every id it gave — kept, only in a record, only in a log file name — and ends the dependents it left waiting', async () => {
    previousRelease(dir);
    // A name no job of this store could have had is not believed, and goes like any file of no job.
    const planted = writeLogFile(dir, 500_000_000_000_000, 'planted\n');
    let orphansGone = () => {};
    const swept = new Promise<void>((resolve) => (orphansGone = resolve));
    const engine = await startEngine(dir, { log: (line) => /removed 3 log files of jobs that were already gone/.test(line) && orphansGone() });
    try {
      const job = await engine.request('addJob', { argv: ['true'] });
      expect(job.id).toBe(59);
      // The retried dependent ends naming the failed job, the one after it naming it in turn; the
      // stranded one whose dependency went with the old cleaning says so; the rest are untouched.
      const read = (id: number) => engine.request('job', { id });
      expect(await read(2)).toMatchObject({ state: 'failed', error: 'job 1 failed', attempts: 0 });
      expect(await read(3)).toMatchObject({ state: 'failed', error: 'job 2 failed' });
      expect(await read(4)).toMatchObject({ state: 'failed', error: 'a job it ran after did not succeed and was cleaned' });
      expect((await jobsFinished(engine, [5, 59])).map((j) => j.state)).toEqual(['succeeded', 'succeeded']);
      // Counted afresh from the rows, since the migration moved jobs outside the engine; the two
      // dependents that never ran for a failed job apart from the failures.
      expect(engine.status().lanes.find((l) => l.name === 'worker')).toMatchObject({ failed: 2, blocked: 2, succeeded: 2, waiting: 0 });
      // Its first pass removes what the old cleaning left, by the jobs' own numbers.
      await swept;
      expect(existsSync(join(dir, 'logs', '0', '57.stdout.log'))).toBe(false);
      expect(existsSync(join(dir, 'logs', '0', '58.logs'))).toBe(false);
      expect(existsSync(planted)).toBe(false);
    } finally {
      await engine.stop({ graceMs: 2000 });
    }
  });
});

describe('cleaning leaves nothing behind', () => {
  it('a pass finishes the removals one cut short left, and removes the files of jobs already gone — never a kept job’s, never a shared lane’s', async () => {
    const db = openDatabase(dir, migrationsDir);
    const counts = new JobCounts(db);
    const store = new JobStore(db, counts, join(dir, 'lanes.db-wal'));
    const cleaner = new JobCleaner(db, counts, store.waits);
    const insert = (state: string) => Number(db.prepare("INSERT INTO jobs (lane, spec, state, created_at, finished_at) VALUES ('worker', ?, ?, 1, ?)").run(SPEC, state, state === 'running' ? null : 5).lastInsertRowid);
    const gone = [insert('succeeded'), insert('failed')];
    const kept = insert('running');
    for (const id of [...gone, kept]) logFile(id, `job ${id}\n`);
    // A pass whose rows went, and whose engine was killed before a file did.
    expect(walkAll(cleaner, 10).length).toBe(0);
    expect(db.prepare('SELECT id FROM logs_to_remove ORDER BY id').all()).toEqual(gone.map((id) => ({ id })));
    // Files no record names: a job removed by an older Lanes (an id below the next), and a shared lane's.
    const orphan = logFile(kept + 1, 'orphan\n');
    db.prepare("UPDATE sqlite_sequence SET seq = ? WHERE name = 'jobs'").run(kept + 1);
    const shared = logFile(4821000000000017, 'shared\n');
    const retention = new Retention({ cleaner, space: new StoreSpace(db), logs: new LogFiles(dir), events: new EventHub(1), keep: DEFAULT_KEEP, logsMaxBytes: 1 << 30, changed: () => {}, log: () => {} });
    await retention.pass();
    const left = readdirSync(join(dir, 'logs'), { recursive: true }).map(String).filter((n) => n.endsWith('.log')).sort();
    expect(left).toEqual([`0/${kept}.stdout.log`, '4821000000000/4821000000000017.stdout.log'].sort());
    expect(existsSync(orphan)).toBe(false);
    expect(existsSync(shared)).toBe(true);
    expect(db.prepare('SELECT count(*) AS n FROM logs_to_remove').get()).toEqual({ n: 0 });
    await retention.stop();
    db.close();
  });
});

describe('every dependent ends', () => {
  it('cleaning a job that did not succeed fails a dependent still queued, naming it, in the same transaction', () => {
    const db = openDatabase(dir, migrationsDir);
    const counts = new JobCounts(db);
    const store = new JobStore(db, counts, join(dir, 'lanes.db-wal'));
    const cleaner = new JobCleaner(db, counts, store.waits);
    const insert = (state: string, deps = 0) =>
      Number(db.prepare("INSERT INTO jobs (lane, spec, state, created_at, finished_at, deps_left) VALUES ('worker', ?, ?, 1, ?, ?)").run(SPEC, state, state === 'queued' ? null : 5, deps).lastInsertRowid);
    const a = insert('failed');
    const b = insert('queued', 1);
    const c = insert('queued', 1);
    db.prepare('INSERT INTO job_deps (after, job) VALUES (?, ?), (?, ?)').run(a, b, b, c);
    // A store that knows of links from the start (as one that opened on them does).
    const fresh = new JobCleaner(db, counts, new JobStore(db, counts, join(dir, 'lanes.db-wal')).waits);
    const failed = walkAll(fresh, 10);
    expect(failed.map((j) => [j.id, j.state, j.error])).toEqual([
      [b, 'failed', `job ${a} failed`],
      [c, 'failed', `job ${b} failed`],
    ]);
    expect(cleaner.find(a)).toMatchObject({ state: 'failed' });
    db.close();
  });

  describe('with an engine', () => {
    let engine: Engine;
    beforeEach(async () => {
      engine = await startEngine(dir);
    });
    afterEach(async () => {
      await engine.stop({ graceMs: 2000 });
    });

    it('refuses a retry of a dependent whose dependency failed in the words add --after uses, and again once that was cleaned', async () => {
      await engine.request('addLane', { name: 'other', cap: 1 });
      // It fails once its dependent is queued (a job after one already failed is refused at add).
      const go = join(dir, 'go');
      const a = await engine.request('addJob', { shell: `while [ ! -f ${go} ]; do sleep 0.05; done; exit 1`, maxAttempts: 1 });
      const b = await engine.request('addJob', { argv: ['true'], lane: 'other', after: [a.id] });
      writeFileSync(go, '');
      const [, jb] = await jobsFinished(engine, [a.id, b.id]);
      expect(jb).toMatchObject({ state: 'failed', error: `job ${a.id} failed` });
      const asAdd = await refusal(engine.request('addJob', { argv: ['true'], after: [a.id] }));
      const asRetry = await refusal(engine.request('retry', { id: b.id }));
      expect(asRetry.message).toBe(asAdd.message);
      expect(asRetry.message).toBe(`job ${a.id} failed, so a job after it would never run; retry it first (lanes retry ${a.id})`);
      expect((await refusal(engine.request('restartJobs', { ids: [b.id], inPlace: true }))).message).toContain(asAdd.message);
      expect((await engine.request('job', { id: b.id })).state).toBe('failed');

      // The dependency is cleaned; the dependent is kept, still failed, still naming it.
      expect(await engine.request('clean', { lane: 'worker' })).toMatchObject({ removed: 1 });
      const after = await engine.request('job', { id: b.id });
      expect(after).toMatchObject({ state: 'failed', error: `job ${a.id} failed` });
      expect(after.after).toEqual([{ id: a.id, state: 'failed', cleanedAt: expect.any(Number) }]);
      const cleanedWords = `job ${a.id} failed and has been cleaned, so a job after it would never run`;
      expect((await refusal(engine.request('retry', { id: b.id }))).message).toBe(cleanedWords);
      expect((await refusal(engine.request('addJob', { argv: ['true'], after: [a.id] }))).message).toBe(cleanedWords);
      expect(await engine.request('retryJobs', { lane: 'other' })).toEqual({ retried: 0, refused: 1 });
    });

    it('retries a chain together in order, and leaves a dependent alone when its dependency is not retried with it', async () => {
      const flag = join(dir, 'ok');
      const go = join(dir, 'go');
      const a = await engine.request('addJob', { shell: `while [ ! -f ${go} ]; do sleep 0.05; done; test -f ${flag}`, maxAttempts: 1 });
      const b = await engine.request('addJob', { argv: ['true'], after: [a.id] });
      const c = await engine.request('addJob', { argv: ['true'], after: [b.id] });
      writeFileSync(go, '');
      await jobsFinished(engine, [a.id, b.id, c.id]);
      expect(await engine.request('retryJobs', { ids: [b.id, c.id] })).toEqual({ retried: 0, refused: 2 });
      writeFileSync(flag, '');
      expect(await engine.request('retryJobs', { ids: [c.id, b.id, a.id] })).toEqual({ retried: 3 });
      const [ja, jb, jc] = await jobsFinished(engine, [a.id, b.id, c.id]);
      expect([ja!.state, jb!.state, jc!.state]).toEqual(['succeeded', 'succeeded', 'succeeded']);
      expect(jc!.startedAt!).toBeGreaterThanOrEqual(jb!.finishedAt!);
      expect(jb!.startedAt!).toBeGreaterThanOrEqual(ja!.finishedAt!);
    });

    it('retries a cancelled job and its failed dependent together, whichever way each ended', async () => {
      await engine.request('setCap', { lane: 'worker', cap: 1 });
      const go = join(dir, 'go');
      const blocker = await engine.request('addJob', { shell: `while [ ! -f ${go} ]; do sleep 0.05; done` });
      const a = await engine.request('addJob', { argv: ['true'] });
      const b = await engine.request('addJob', { argv: ['true'], after: [a.id] });
      await engine.request('cancel', { id: a.id });
      const [jb] = await jobsFinished(engine, [b.id]);
      expect(jb).toMatchObject({ state: 'failed', error: `job ${a.id} was cancelled` });
      writeFileSync(go, '');
      expect(await engine.request('retryJobs', { ids: [b.id, a.id] })).toEqual({ retried: 2 });
      expect((await jobsFinished(engine, [blocker.id, a.id, b.id])).map((j) => j.state)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    });

    it('runs a job added after a cleaned success at once, and names that job by its record', async () => {
      const a = await engine.request('addJob', { argv: ['true'] });
      await jobsFinished(engine, [a.id]);
      await engine.request('clean', {});
      const b = await engine.request('addJob', { argv: ['true'], after: [a.id] });
      const [jb] = await jobsFinished(engine, [b.id]);
      expect(jb).toMatchObject({ state: 'succeeded' });
      expect(jb!.after).toEqual([{ id: a.id, state: 'succeeded', cleanedAt: expect.any(Number) }]);
      expect((await refusal(engine.request('addJob', { argv: ['true'], after: [999_999] }))).message).toBe('there is no job 999999 to run after');
    });
  });
});

describe('a cleaned job', () => {
  it('answers every request about it with its record and its words, and nothing more', async () => {
    const engine = await startEngine(dir);
    try {
      const job = await engine.request('addJob', { shell: 'exit 3', maxAttempts: 1 });
      await jobsFinished(engine, [job.id]);
      await engine.request('clean', {});
      const record = await engine.request('cleanedJob', { id: job.id });
      expect(Object.keys(record).sort()).toEqual(['cleanedAt', 'exitCode', 'finishedAt', 'id', 'lane', 'state']);
      expect(record).toMatchObject({ id: job.id, lane: 'worker', state: 'failed', exitCode: 3 });
      const asks = [
        engine.request('job', { id: job.id }),
        engine.request('logTail', { id: job.id }),
        engine.request('retry', { id: job.id }),
        engine.request('cancel', { id: job.id }),
        engine.request('restartJobs', { ids: [job.id] }),
        engine.request('editJob', { id: job.id, priority: 1 }),
      ];
      for (const ask of asks) {
        const error = await refusal(ask);
        expect(error.code).toBe('not_found');
        expect(error.message).toMatch(new RegExp(`^job ${job.id} in lane worker failed \\(exit 3\\) at .+ and was cleaned at `));
        expect(error.cleaned).toEqual(record);
        // Across the wire, as the CLI and the window get it.
        expect(LanesError.from(JSON.parse(JSON.stringify(error.body)), '').cleaned).toEqual(record);
      }
    } finally {
      await engine.stop({ graceMs: 2000 });
    }
  });
});
