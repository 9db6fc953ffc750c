// What a worker hears as it reports, message by message: the turn recorder over a real store (a
// SQLite file), with one worker whose messages are recorded instead of sent to a process. Here
// the round trips themselves are the subject: a lane's second ask already comes with jobs in hand,
// and a worker promised to another lane takes that lane's first job as it goes on to its last one
// here, so it never waits on the engine between lanes.
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JobAssignment, ToWorker } from '../../electron/worker-protocol/protocol.js';
import { migrationsDir } from '../../electron/paths/app-files.js';
import { JobCounts } from '../../electron/engine/store/counts.js';
import { openDatabase, type Db } from '../../electron/engine/store/db.js';
import { JobQueries } from '../../electron/engine/store/job-queries.js';
import { JobStore } from '../../electron/engine/store/jobs.js';
import { LaneStore } from '../../electron/engine/store/lanes.js';
import { LocalQueue } from '../../electron/engine/queues/local-queue.js';
import { Queues } from '../../electron/engine/queues/queues.js';
import { DeferredWrites } from '../../electron/engine/workers/deferred.js';
import type { WorkerRecord } from '../../electron/engine/workers/pool-types.js';
import type { TurnMessage } from '../../electron/engine/workers/reports.js';
import { TurnRecorder } from '../../electron/engine/workers/turns.js';
import { ENGINE_DEFAULTS } from '../../electron/engine/defaults.js';
import { tempDir } from '../support/engine.js';

const logPaths = (id: number) => ({ stdoutPath: `${id}.out`, stderrPath: `${id}.err`, allPath: `${id}.log`, joinedPath: `${id}.logs` });
const shellLane = (name: string) => ({ name, class: 'cpu' as const, cap: 1, workerCommand: null, workerCwd: null, timeoutMs: null, nudgeQuietUntil: null, nudgeQuietBacklog: null, queue: null });

describe('turns of one worker, as it hears them', () => {
  let dir: { dir: string; cleanup(): void };
  let db: Db;
  let store: JobStore;
  let sent: ToWorker[];
  let w: WorkerRecord;
  let recorder: TurnRecorder;
  let sizerLooked: number;

  beforeEach(() => {
    dir = tempDir();
    db = openDatabase(dir.dir, migrationsDir);
    const counts = new JobCounts(db);
    const lanes = new LaneStore(db, counts);
    for (const name of ['a', 'b']) lanes.add(shellLane(name), Date.now());
    store = new JobStore(db, counts, join(dir.dir, 'lanes.db-wal'));
    const queues = new Queues(new LocalQueue(store, new JobQueries(db), logPaths));
    sent = [];
    sizerLooked = 0;
    w = {
      id: 'w1',
      lane: 'a',
      proc: { pid: 1, send: (m) => sent.push(m), onMessage: () => {}, onExit: () => {}, kill: () => {} },
      state: 'idle',
      job: null,
      hand: [],
      pgids: new Set(),
      lastHeard: 0,
      persistent: false,
    };
    const workers = new Map([[w.id, w]]);
    const log = () => {};
    recorder = new TurnRecorder({
      workers,
      queues,
      hooks: { now: Date.now, log, jobChanged: () => {}, loaded: () => {}, fleetChanged: () => sizerLooked++, logPaths },
      deferred: new DeferredWrites(log, () => {}),
      closed: () => false,
      misbehaved: (_w, why) => {
        throw new Error(why);
      },
      handBelowMs: ENGINE_DEFAULTS.handBelowMs,
    });
  });

  afterEach(async () => {
    await store?.close();
    db?.close();
    dir.cleanup();
  });

  const queue = async (lane: string, n: number) =>
    (await store.enqueue(Array.from({ length: n }, (_, i) => ({ lane, spec: { kind: 'argv' as const, argv: ['true', String(i)] }, maxAttempts: 1, timeoutMs: null })), Date.now())).map((j) => j.id);
  /** The worker says this; the answer it hears, if any. */
  const say = (m: TurnMessage): { ids: number[]; firstStarted: boolean } | undefined => {
    const before = sent.length;
    recorder.add(w, m);
    recorder.flush();
    const answer = sent.slice(before).find((s): s is Extract<ToWorker, { t: 'jobs' }> => s.t === 'jobs');
    return answer && { ids: answer.jobs.map((j: JobAssignment) => j.id), firstStarted: answer.firstStarted };
  };
  const done = (jobId: number, o: { next?: number; pull: boolean }) =>
    say({ t: 'done', jobId, attempt: 1, outcome: { state: 'succeeded', exitCode: 0, error: null, ranMs: 2 }, pull: o.pull, ...(o.next ? { next: { jobId: o.next, attempt: 1 } } : {}) });

  it("a lane's second ask comes with the rest in hand: its first job already said how short they are", async () => {
    const [a1, a2, a3, a4] = await queue('a', 4);
    expect(say({ t: 'pull' })).toEqual({ ids: [a1], firstStarted: true });
    expect(done(a1!, { pull: true })).toEqual({ ids: [a2, a3, a4], firstStarted: true });
    expect(w.hand.map((h) => h.id)).toEqual([a3, a4]);
  });

  it('taking the last jobs of its lane brings the sizer to look, while the worker is still busy with them', async () => {
    const [a1] = await queue('a', 3);
    say({ t: 'pull' });
    const looked = sizerLooked;
    done(a1!, { pull: true });
    expect(w.state).toBe('busy');
    expect(sizerLooked).toBe(looked + 1);
  });

  it('promised to another lane, it takes that lane’s jobs as it goes on to its last one here, and belongs there from then on', async () => {
    const [a1, a2, a3] = await queue('a', 3);
    const [b1, b2, b3] = await queue('b', 3);
    say({ t: 'pull' });
    expect(done(a1!, { pull: true })).toEqual({ ids: [a2, a3], firstStarted: true });
    // The sizer promises it to "b" (a pass after it took a's last job). b's pace is not known:
    // its jobs are taken as if they were short, behind a job known to be.
    w.moveTo = 'b';
    expect(done(a2!, { next: a3, pull: true })).toEqual({ ids: [b1, b2, b3], firstStarted: false });
    expect([w.lane, w.moveTo, w.job?.id, w.job?.lane, w.hand.map((h) => h.id)]).toEqual(['b', undefined, a3, 'a', [b1, b2, b3]]);
    // It goes on from one lane to the next with no trip in between, and on through b's jobs.
    expect(done(a3!, { next: b1, pull: false })).toBeUndefined();
    expect(w.job).toMatchObject({ id: b1, lane: 'b' });
    expect(done(b1!, { next: b2, pull: false })).toBeUndefined();
    const states = db.prepare<[], { id: number; state: string }>("SELECT id, state FROM jobs WHERE lane IN ('a', 'b') ORDER BY id").all();
    expect(states.map((s) => s.state)).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded', 'running', 'queued']);
  });

  it('a job that ran long comes back with the rest of its hand: they are free again, and the worker takes one at a time', async () => {
    const [a1, a2, a3] = await queue('a', 3);
    const [b1, b2, b3, b4] = await queue('b', 4);
    say({ t: 'pull' });
    done(a1!, { pull: true });
    w.moveTo = 'b';
    // Behind a short job it took b's jobs on a guess…
    expect(done(a2!, { next: a3, pull: true })).toEqual({ ids: [b1, b2, b3, b4], firstStarted: false });
    done(a3!, { next: b1, pull: false });
    const looked = sizerLooked;
    // …and b's first job ran for a minute: the worker gives back the three it holds and asks anew.
    const long = { state: 'succeeded' as const, exitCode: 0, error: null, ranMs: 60_000 };
    expect(say({ t: 'done', jobId: b1!, attempt: 1, outcome: long, pull: true, returned: [b2!, b3!, b4!] })).toEqual({ ids: [b2], firstStarted: true });
    expect(w.hand).toEqual([]);
    // The sizer looks again: two of b's jobs wait for any worker.
    expect(sizerLooked).toBeGreaterThan(looked);
    const states = db.prepare<[], { state: string }>("SELECT state FROM jobs WHERE lane = 'b' ORDER BY id").all();
    expect(states.map((s) => s.state)).toEqual(['succeeded', 'running', 'queued', 'queued']);
  });

  it('what it says it gives back counts only for jobs it holds', async () => {
    const [a1, a2, a3] = await queue('a', 3);
    say({ t: 'pull' });
    done(a1!, { pull: true });
    expect(w.hand.map((h) => h.id)).toEqual([a3]);
    // a1 is done and a2 runs: neither is in its hand, so neither goes back to the queue.
    say({ t: 'done', jobId: a2!, attempt: 1, outcome: { state: 'succeeded', exitCode: 0, error: null, ranMs: 60_000 }, pull: true, returned: [a1!, a3!] });
    const states = db.prepare<[], { state: string }>("SELECT state FROM jobs WHERE lane = 'a' ORDER BY id").all();
    expect(states.map((s) => s.state)).toEqual(['succeeded', 'succeeded', 'running']);
  });

  it('promised while on a job of a lane not known to be short, it takes nothing ahead: it changes lanes once free', async () => {
    const [a1, a2] = await queue('a', 2);
    const [b1] = await queue('b', 1);
    say({ t: 'pull' });
    // A first job of unknown pace: the worker asks again only when it is free, with nothing in hand.
    say({ t: 'done', jobId: a1!, attempt: 1, outcome: { state: 'succeeded', exitCode: 0, error: null, ranMs: 60_000 }, pull: true });
    w.moveTo = 'b';
    expect(w.job?.id).toBe(a2);
    expect(say({ t: 'done', jobId: a2!, attempt: 1, outcome: { state: 'succeeded', exitCode: 0, error: null, ranMs: 60_000 }, pull: true })).toEqual({ ids: [b1], firstStarted: true });
    expect(w.lane).toBe('b');
  });
});
