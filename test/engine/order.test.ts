// Run after, run later, run first, labels, edit and restart: real commands through real worker
// processes against a real SQLite file, waiting for what the engine announces.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { engineEachTest, jobsFinished, nextEvent, until } from '../support/engine.js';

const t = engineEachTest();
const lane = (name = 'worker') => t.engine.status().lanes.find((l) => l.name === name)!;
const running = (id: number) => nextEvent(t.engine, (e) => e.type === 'job' && e.data.id === id && e.data.state === 'running');

describe('run after', () => {
  it('starts a job only once the job it runs after has succeeded', async () => {
    await t.engine.request('setCap', { lane: 'worker', cap: 3 });
    const a = await t.engine.request('addJob', { argv: ['sleep', '1'] });
    const b = await t.engine.request('addJob', { argv: ['date'], after: [a.id] });
    expect((await t.engine.request('job', { id: b.id })).waitingFor).toBe(1);
    // Listed as a dependent waiting for the job it runs after.
    const after = await t.engine.request('listJobs', { dependents: 'after' });
    expect({ ids: after.jobs.map((j) => j.id), total: after.total }).toEqual({ ids: [b.id], total: 1 });
    const [ja, jb] = await jobsFinished(t.engine, [a.id, b.id]);
    expect(ja!.state).toBe('succeeded');
    expect(jb!.state).toBe('succeeded');
    expect(jb!.startedAt!).toBeGreaterThanOrEqual(ja!.finishedAt!);
    // Each side names the other.
    expect(jb!.after).toEqual([{ id: a.id, state: 'succeeded', command: 'sleep 1' }]);
    expect(ja!.dependents!.map((d) => d.id)).toEqual([b.id]);
  });

  it('fails a job whose dependency failed, naming it, without running it; a retry of the dependent runs it', async () => {
    const flag = join(t.dir, 'ok');
    const a = await t.engine.request('addJob', { shell: `test -f ${flag}`, maxAttempts: 1 });
    const b = await t.engine.request('addJob', { argv: ['touch', join(t.dir, 'b-ran')], after: [a.id] });
    const c = await t.engine.request('addJob', { argv: ['true'], after: [b.id] });
    const [ja, jb, jc] = await jobsFinished(t.engine, [a.id, b.id, c.id]);
    expect(ja!.state).toBe('failed');
    expect(jb).toMatchObject({ state: 'failed', error: `job ${a.id} failed`, blockedBy: a.id, attempts: 0 });
    // Down the chain: each names the job it ran after.
    expect(jc).toMatchObject({ state: 'failed', error: `job ${b.id} failed`, blockedBy: b.id, attempts: 0 });
    expect(existsSync(join(t.dir, 'b-ran'))).toBe(false);
    // The two that never ran are counted apart from the one that ran and failed, and listed apart.
    expect(lane()).toMatchObject({ failed: 1, blocked: 2 });
    const ids = async (input: object) => (await t.engine.request('listJobs', input)).jobs.map((j) => j.id);
    expect(await ids({ dependents: 'blocked' })).toEqual([c.id, b.id]);
    expect(await ids({ lane: 'worker', state: 'failed', dependents: 'excluded' })).toEqual([a.id]);
    expect((await t.engine.request('listJobs', { dependents: 'blocked' })).total).toBe(2);
    // A job after a failed one is refused at add: it could never run.
    await expect(t.engine.request('addJob', { argv: ['true'], after: [a.id] })).rejects.toThrow(`job ${a.id} failed`);

    // Retrying the dependency does not revive the dependent by itself…
    (await import('node:fs')).writeFileSync(flag, '');
    await t.engine.request('retry', { id: a.id });
    expect((await jobsFinished(t.engine, [a.id]))[0]!.state).toBe('succeeded');
    expect((await t.engine.request('job', { id: b.id })).state).toBe('failed');
    // …retrying the dependent does.
    await t.engine.request('retry', { id: b.id });
    expect((await jobsFinished(t.engine, [b.id]))[0]!.state).toBe('succeeded');
    expect(lane()).toMatchObject({ failed: 0, blocked: 1 });
    expect(existsSync(join(t.dir, 'b-ran'))).toBe(true);
  });

  it('fails a dependent of a cancelled job with "was cancelled", and refuses unknown ids', async () => {
    await t.engine.request('setCap', { lane: 'worker', cap: 1 });
    const blocker = await t.engine.request('addJob', { argv: ['sleep', '30'] });
    const a = await t.engine.request('addJob', { argv: ['true'] });
    const b = await t.engine.request('addJob', { argv: ['true'], after: [a.id] });
    await t.engine.request('cancel', { id: a.id });
    const [jb] = await jobsFinished(t.engine, [b.id]);
    expect(jb).toMatchObject({ state: 'failed', error: `job ${a.id} was cancelled`, blockedBy: a.id });
    await expect(t.engine.request('addJob', { argv: ['true'], after: [999_999] })).rejects.toThrow('there is no job 999999 to run after');
    await t.engine.request('cancel', { id: blocker.id });
  });

  it('keeps ten jobs waiting for a running one out of the lane\'s demand: one busy worker, no nudge', async () => {
    await t.engine.request('setCap', { lane: 'worker', cap: 3 });
    const first = await t.engine.request('addJob', { argv: ['sleep', '3'] });
    const started = running(first.id);
    const ten = await t.engine.request('addJobs', { jobs: Array.from({ length: 10 }, () => ({ argv: ['true'], after: [first.id] })) });
    await started;
    await until(t.engine, () => lane().waitingForJobs === 10 && lane().running === 1, 10_000, 'ten waiting for the first');
    // Growth is immediate in the pass after the add: had the ten counted, three workers would be up now.
    const l = lane();
    expect(l).toMatchObject({ busy: 1, waiting: 0, waitingForJobs: 10, nudge: null });
    expect(l.workers).toBeLessThanOrEqual(1);
    const done = await jobsFinished(t.engine, [first.id, ...ten.ids]);
    expect(done.every((j) => j.state === 'succeeded')).toBe(true);
  });
});

describe('run later', () => {
  it('does not start a delayed job before its time, across a restart of the engine', async () => {
    const { id } = await t.engine.request('addJob', { argv: ['true'], delaySeconds: 3 });
    const queued = await t.engine.request('job', { id });
    expect(queued.notBefore).toBeGreaterThanOrEqual(queued.createdAt + 3000);
    expect(lane()).toMatchObject({ scheduled: 1, waiting: 0, scheduledNext: queued.notBefore });
    await t.restart();
    const [job] = await jobsFinished(t.engine, [id]);
    expect(job!.state).toBe('succeeded');
    expect(job!.startedAt!).toBeGreaterThanOrEqual(queued.createdAt + 3000);
  });
});

describe('the longest wait', () => {
  it('counts from when a job could run: its time, or the end of the job it runs after, not a delay asked for', async () => {
    await t.engine.request('addLane', { name: 'held', cap: 0 });
    const gate = join(t.dir, 'gate');
    const a = await t.engine.request('addJob', { shell: `while [ ! -f ${gate} ]; do sleep 0.05; done` });
    const later = await t.engine.request('addJob', { lane: 'held', argv: ['true'], delaySeconds: 1 });
    const after = await t.engine.request('addJob', { lane: 'held', argv: ['true'], after: [a.id] });
    expect(lane('held')).toMatchObject({ waiting: 0, oldestQueuedAt: null });
    // Its time comes: it has waited since then, not since it was queued.
    await until(t.engine, () => lane('held').waiting === 1, 20_000, 'the scheduled job runnable');
    const due = (await t.engine.request('job', { id: later.id })).createdAt + 1000;
    expect(lane('held').oldestQueuedAt).toBeGreaterThanOrEqual(due);
    (await import('node:fs')).writeFileSync(gate, '');
    const [ja] = await jobsFinished(t.engine, [a.id]);
    await until(t.engine, () => lane('held').waiting === 2, 20_000, 'the dependent runnable');
    // The one runnable longest is the scheduled one; the dependent's wait began as its job ended.
    expect(lane('held').oldestQueuedAt).toBeLessThan(ja!.finishedAt!);
    await t.engine.request('cancel', { id: later.id });
    await until(t.engine, () => lane('held').waiting === 1, 20_000, 'one left');
    expect(lane('held').oldestQueuedAt).toBeGreaterThanOrEqual(ja!.finishedAt!);
    expect((await t.engine.request('job', { id: after.id })).createdAt).toBeLessThan(ja!.finishedAt!);
  });

  it('counts a retried job\'s wait from the retry, not from when it was first queued', async () => {
    await t.engine.request('addLane', { name: 'held', cap: 1 });
    const job = await t.engine.request('addJob', { lane: 'held', argv: ['false'], maxAttempts: 1 });
    const [failed] = await jobsFinished(t.engine, [job.id]);
    expect(failed!.finishedAt!).toBeGreaterThan(failed!.createdAt);
    await t.engine.request('setCap', { lane: 'held', cap: 0 });
    const asked = Date.now();
    await t.engine.request('retry', { id: job.id });
    expect(lane('held').waiting).toBe(1);
    expect(lane('held').oldestQueuedAt).toBeGreaterThanOrEqual(asked);
  });
});

describe('run first', () => {
  it('at cap 1 with 20 queued, starts the one added with priority 10 next', async () => {
    await t.engine.request('setCap', { lane: 'worker', cap: 1 });
    const blocker = await t.engine.request('addJob', { argv: ['sleep', '1'] });
    await running(blocker.id);
    const twenty = await t.engine.request('addJobs', { jobs: Array.from({ length: 20 }, () => ({ argv: ['true'] })) });
    const first = await t.engine.request('addJob', { argv: ['true'], priority: 10 });
    const jobs = await jobsFinished(t.engine, [first.id, ...twenty.ids]);
    const earliest = Math.min(...jobs.slice(1).map((j) => j.startedAt!));
    expect(jobs[0]!.priority).toBe(10);
    expect(jobs[0]!.startedAt!).toBeLessThanOrEqual(earliest);
    // And it ran before any of the twenty: their ids are older, so only its priority put it first.
    const order = jobs.map((j) => j.id).sort((x, y) => jobs.find((j) => j.id === x)!.startedAt! - jobs.find((j) => j.id === y)!.startedAt! || x - y);
    expect(order[0]).toBe(first.id);
  });
});

describe('labels', () => {
  it('lists, cancels and retries exactly the labelled jobs', async () => {
    await t.engine.request('setCap', { lane: 'worker', cap: 0 });
    const nightly = await t.engine.request('addJobs', { jobs: [{ argv: ['true'], labels: ['nightly'] }, { argv: ['true'], labels: ['nightly', 'big'] }] });
    const other = await t.engine.request('addJob', { argv: ['true'], labels: ['daily'] });
    await t.engine.request('addJob', { argv: ['true'] });
    const page = await t.engine.request('listJobs', { label: 'nightly' });
    expect(page.jobs.map((j) => j.id).sort()).toEqual([...nightly.ids].sort());
    expect(page.total).toBe(2);
    expect(page.jobs.find((j) => j.id === nightly.ids[1])!.labels).toEqual(['nightly', 'big']);
    expect((await t.engine.request('cancelJobs', { label: 'nightly' })).cancelled).toBe(2);
    expect((await t.engine.request('job', { id: other.id })).state).toBe('queued');
    expect((await t.engine.request('retryJobs', { label: 'nightly', state: 'cancelled' })).retried).toBe(2);
    expect((await t.engine.request('listJobs', { label: 'nightly', state: 'queued' })).jobs).toHaveLength(2);
    await expect(t.engine.request('addJob', { argv: ['true'], labels: ['has space'] })).rejects.toThrow(/without spaces/);
  });
});

describe('edit', () => {
  it("changes a queued job's command, which is what runs; a running job is refused and unchanged", async () => {
    await t.engine.request('setCap', { lane: 'worker', cap: 1 });
    const blocker = await t.engine.request('addJob', { argv: ['sleep', '1'] });
    await running(blocker.id);
    const queued = await t.engine.request('addJob', { argv: ['touch', join(t.dir, 'old')], cwd: t.dir });
    const edited = await t.engine.request('editJob', { id: queued.id, shell: 'echo new > new', priority: 5, labels: ['edited'] });
    expect(edited).toMatchObject({ command: 'echo new > new', priority: 5, labels: ['edited'] });
    await expect(t.engine.request('editJob', { id: blocker.id, argv: ['true'] })).rejects.toThrow(`job ${blocker.id} is running; only a job still queued can be edited`);
    const [jb, jq] = await jobsFinished(t.engine, [blocker.id, queued.id]);
    expect(jb!.command).toBe('sleep 1');
    expect(jq!.state).toBe('succeeded');
    // The folder is kept from the job it was.
    expect(readFileSync(join(t.dir, 'new'), 'utf8')).toBe('new\n');
    expect(existsSync(join(t.dir, 'old'))).toBe(false);
    await expect(t.engine.request('editJob', { id: queued.id, priority: 1 })).rejects.toThrow(/has succeeded/);
  });

  it('refuses an edit that would make two jobs wait for each other', async () => {
    await t.engine.request('setCap', { lane: 'worker', cap: 0 });
    const a = await t.engine.request('addJob', { argv: ['true'] });
    const b = await t.engine.request('addJob', { argv: ['true'], after: [a.id] });
    await expect(t.engine.request('editJob', { id: a.id, after: [b.id] })).rejects.toThrow(/neither would ever run/);
    expect((await t.engine.request('job', { id: a.id })).after).toEqual([]);
  });
});

describe('restart', () => {
  it('runs a succeeded job again as a new job, linked both ways; in place under its own id', async () => {
    const { id } = await t.engine.request('addJob', { shell: 'echo run >> runs', cwd: t.dir, labels: ['again'] });
    await jobsFinished(t.engine, [id]);
    const { ids } = await t.engine.request('restartJobs', { ids: [id] });
    expect(ids[0]).not.toBe(id);
    const [again] = await jobsFinished(t.engine, ids);
    expect(again).toMatchObject({ state: 'succeeded', command: 'echo run >> runs', restartOf: id, labels: ['again'] });
    expect((await t.engine.request('job', { id })).restartedAs).toEqual(ids);
    const inPlace = await t.engine.request('restartJobs', { ids: [id], inPlace: true });
    expect(inPlace.ids).toEqual([id]);
    await jobsFinished(t.engine, [id]);
    expect(readFileSync(join(t.dir, 'runs'), 'utf8')).toBe('run\nrun\nrun\n');
  });
});

describe('bad input', () => {
  it.each([
    ['a priority out of range', { argv: ['true'], priority: 101 }, /priority must be at most 100/],
    ['a fractional priority', { argv: ['true'], priority: 1.5 }, /priority must be a whole number/],
    ['too many labels', { argv: ['true'], labels: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'] }, /at most 8 labels/],
    ['a label twice', { argv: ['true'], labels: ['a', 'a'] }, /a label is given twice/],
    ['a delay and a time', { argv: ['true'], delaySeconds: 5, notBefore: Date.now() + 9_000 }, /delaySeconds or notBefore, not both/],
    ['a time two years ahead', { argv: ['true'], notBefore: Date.now() + 2 * 366 * 86_400_000 }, /within a year/],
    ['too many jobs to run after', { argv: ['true'], after: Array.from({ length: 101 }, (_, i) => i + 1) }, /at most 100 jobs/],
  ])('refuses %s, and stores nothing', async (_what, input, message) => {
    await expect(t.engine.request('addJob', input)).rejects.toThrow(message);
    expect((await t.engine.request('listJobs', {})).total).toBe(0);
  });

  it('refuses an edit that changes nothing, and one of a job that does not exist', async () => {
    const { id } = await t.engine.request('addJob', { argv: ['true'], delaySeconds: 3600 });
    await expect(t.engine.request('editJob', { id })).rejects.toThrow(/nothing to change/);
    await expect(t.engine.request('editJob', { id: 999_999, priority: 1 })).rejects.toThrow('there is no job 999999');
    await expect(t.engine.request('restartJobs', { ids: [id] })).rejects.toThrow(/only a finished job can be restarted/);
  });
});
