// What a day's real use asked of the engine, each finding against a real engine and real worker
// processes: waits that count the jobs still waiting, bulk cancel and retry, a pause that holds
// all work without touching a cap, a nudge that listens, a list that shows the oldest first and
// finds jobs by text, one log with a line between attempts, a persistent worker's load apart from
// its first job, and a ledger and chart that survive restarts.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LanesEvent } from '../../shared/events.js';
import { engineEachTest, jobsFinished, nextEvent, until } from '../support/engine.js';

const t = engineEachTest({ cores: 3 });

const lane = (name: string) => t.engine.status().lanes.find((l) => l.name === name)!;
const gateScript = (gate: string) => ['sh', '-c', `while [ ! -e '${gate}' ]; do sleep 0.02; done`];
const startedEvent = (e: LanesEvent) => e.type === 'job' && e.data.state === 'running';

describe('numbers to trust', () => {
  it('the wait counts the jobs still waiting: the oldest waiting job is named, though none has started', async () => {
    await t.engine.request('addLane', { name: 'held', cap: 0 });
    const { ids } = await t.engine.request('addJobs', { jobs: [{ lane: 'held', argv: ['true'] }, { lane: 'held', argv: ['true'] }] });
    const first = await t.engine.request('job', { id: ids[0]! });
    expect(lane('held')).toMatchObject({ waiting: 2, medianWaitMs: null, oldestQueuedAt: first.createdAt, etaMs: null });
  });
});

describe('bulk control', () => {
  it('cancels by ids and by lane, retries all failed with one request, and removes a lane with what it holds', async () => {
    await t.engine.request('addLane', { name: 'batch', cap: 1 });
    const gate = join(t.dir, 'gate');
    const running = nextEvent(t.engine, startedEvent);
    const { ids } = await t.engine.request('addJobs', { jobs: [{ lane: 'batch', argv: gateScript(gate) }, ...Array.from({ length: 5 }, () => ({ lane: 'batch', argv: ['true'] }))] });
    await running;
    expect(await t.engine.request('cancelJobs', { ids: [ids[1]!, ids[2]!] })).toEqual({ cancelled: 2, stopping: 0 });
    // The rest of the lane, the running one included: it is told to stop.
    expect(await t.engine.request('cancelJobs', { lane: 'batch' })).toEqual({ cancelled: 3, stopping: 1 });
    await jobsFinished(t.engine, ids);
    expect((await t.engine.request('listJobs', { lane: 'batch', state: 'cancelled' })).jobs).toHaveLength(6);

    const failing = await t.engine.request('addJobs', { jobs: Array.from({ length: 3 }, () => ({ lane: 'batch', argv: ['false'], maxAttempts: 1 })) });
    await jobsFinished(t.engine, failing.ids);
    expect(await t.engine.request('retryJobs', { state: 'failed' })).toEqual({ retried: 3 });
    expect(await t.engine.request('retryJobs', { lane: 'batch', state: 'cancelled' })).toEqual({ retried: 6 });

    await expect(t.engine.request('removeLane', { name: 'batch' })).rejects.toThrow(/unfinished|cancel/);
    expect(await t.engine.request('removeLane', { name: 'batch', cancel: true })).toEqual({ removed: 'batch' });
    expect(t.engine.status().lanes.map((l) => l.name)).not.toContain('batch');
  });

  it('refuses a bulk request that names neither ids nor a filter, and changes nothing', async () => {
    await expect(t.engine.request('cancelJobs', {})).rejects.toMatchObject({ field: 'ids' });
    await expect(t.engine.request('retryJobs', { ids: [1], lane: 'worker' })).rejects.toMatchObject({ field: 'ids' });
  });
});

describe('pause and resume', () => {
  it('holds all work without touching a cap: running jobs finish, nothing new starts, and it ends by itself', async () => {
    const gate = join(t.dir, 'gate');
    const running = nextEvent(t.engine, startedEvent);
    const first = await t.engine.request('addJob', { argv: gateScript(gate) });
    await running;
    const { paused } = await t.engine.request('pause', {});
    expect(paused?.until).toBeNull();
    expect(t.engine.status().paused).toEqual(paused);
    const second = await t.engine.request('addJob', { argv: ['true'] });
    writeFileSync(gate, '');
    await jobsFinished(t.engine, [first.id]);
    // The worker left after its job; nothing took the second.
    await until(t.engine, () => lane('worker').workers === 0);
    expect(lane('worker')).toMatchObject({ cap: 1, waiting: 1, mood: 'paused', nudge: null });
    const ledger = await t.engine.request('scaleEvents', { lane: 'worker' });
    expect(ledger.some((e) => e.reason === 'pause')).toBe(true);

    // A timed pause ends by itself and the waiting job runs.
    const timed = await t.engine.request('pause', { forSeconds: 0.3 });
    expect(timed.paused?.until).toBeGreaterThan(Date.now());
    await jobsFinished(t.engine, [second.id]);
    expect(t.engine.status().paused).toBeNull();
    expect(await t.engine.request('resume', {})).toEqual({ paused: null });
  });
});

describe('a nudge that listens', () => {
  it('is quiet after a snooze, and after a person lowers the cap, until the backlog grows materially', async () => {
    await t.engine.request('addLane', { name: 'busy', cap: 1 });
    const gate = join(t.dir, 'gate');
    const jobs = Array.from({ length: 10 }, () => ({ lane: 'busy', argv: gateScript(gate) }));
    await t.engine.request('addJobs', { jobs });
    await until(t.engine, () => lane('busy').nudge !== null, 20_000, 'a nudge');
    // Three cores and no desktop (nobody known at the computer): the machine allows all three.
    expect(lane('busy').nudge).toMatchObject({ waiting: 9, busy: 1, suggestedCap: 3 });

    await t.engine.request('snoozeNudge', { lane: 'busy', forSeconds: 3600 });
    expect(lane('busy')).toMatchObject({ nudge: null });
    expect(lane('busy').nudgeQuietUntil).toBeGreaterThan(Date.now() + 3500_000);
    // It says it rests, why, and at what backlog it speaks again.
    expect(lane('busy').nudgeRest).toMatchObject({ why: 'snooze', speaksAt: 109 });
    // Grown materially (twice, and by 100 at least): it speaks again.
    await t.engine.request('addJobs', { jobs: Array.from({ length: 110 }, () => ({ lane: 'busy', argv: ['true'] })) });
    await until(t.engine, () => lane('busy').nudge !== null, 20_000, 'the nudge again');

    // Lowering a cap is a person's decision: no nudge to undo it.
    await t.engine.request('setCap', { lane: 'busy', cap: 2 });
    await t.engine.request('setCap', { lane: 'busy', cap: 1 });
    expect(lane('busy').nudge).toBeNull();
    expect(lane('busy').nudgeQuietUntil).not.toBeNull();
    expect(lane('busy').nudgeRest).toMatchObject({ why: 'cap', until: lane('busy').nudgeQuietUntil });
    writeFileSync(gate, '');
  });
});

describe('the job list and the log', () => {
  it('oldest first pages on with afterId; text finds jobs by their command', async () => {
    await t.engine.request('addLane', { name: 'held', cap: 0 });
    const { ids } = await t.engine.request('addJobs', { jobs: Array.from({ length: 5 }, (_, i) => ({ lane: 'held', argv: ['echo', i % 2 ? 'thumbnail' : 'resize', String(i)] })) });
    const page = await t.engine.request('listJobs', { lane: 'held', order: 'oldest', limit: 2 });
    expect(page.jobs.map((j) => j.id)).toEqual(ids.slice(0, 2));
    const next = await t.engine.request('listJobs', { lane: 'held', order: 'oldest', limit: 2, afterId: page.nextAfterId! });
    expect(next.jobs.map((j) => j.id)).toEqual(ids.slice(2, 4));
    const found = await t.engine.request('listJobs', { lane: 'held', text: 'THUMB' });
    expect(found.jobs.map((j) => j.id).sort()).toEqual([ids[1], ids[3]]);
  });

  it('one log of both streams in the order they came, with a line between attempts', async () => {
    const { id } = await t.engine.request('addJob', { shell: 'echo out; echo err >&2; exit 3', maxAttempts: 2 });
    const job = await nextEvent(t.engine, (e) => e.type === 'job' && e.data.id === id && e.data.state === 'failed');
    expect(job.type === 'job' && job.data.attempts).toBe(2);
    const log = await t.engine.request('logTail', { id, stream: 'all' });
    expect(log.text).toMatch(/^out\nerr\n── attempt 2 · \d\d:\d\d:\d\d ──\nout\nerr\n$/);
  });
});

describe('a persistent worker', () => {
  it('its load time is kept apart from its first job', async () => {
    const script = join(t.dir, 'slow-load.cjs');
    writeFileSync(
      script,
      `setTimeout(() => { process.stdout.write('{"ready":true}\\n');
  require('readline').createInterface({ input: process.stdin }).on('line', (l) => process.stdout.write(JSON.stringify({ id: JSON.parse(l).id, ok: true }) + '\\n'));
}, 700);\n`,
    );
    await t.engine.request('addLane', { name: 'model', cap: 1, workerCommand: [process.execPath, script] });
    const { id } = await t.engine.request('addJob', { lane: 'model', payload: {} });
    const [done] = await jobsFinished(t.engine, [id]);
    const job = await t.engine.request('job', { id });
    expect(job.loadMs).toBeGreaterThanOrEqual(600);
    // The load is moved out of the job's own run: its run starts after the load, counted from
    // when it was queued.
    expect(done!.startedAt!).toBeGreaterThanOrEqual(job.createdAt + job.loadMs!);
    expect(done!.finishedAt!).toBeGreaterThanOrEqual(done!.startedAt!);
    expect(lane('model').workerLoadMs).toBe(job.loadMs);
  });
});

describe('a ledger and a chart that survive restarts', () => {
  it('logs the shutdown and the start, and keeps the timeline with its cap across them', async () => {
    const { id } = await t.engine.request('addJob', { argv: ['true'] });
    await jobsFinished(t.engine, [id]);
    await t.engine.request('setCap', { lane: 'worker', cap: 2 });
    await until(t.engine, () => true);
    const before = await t.engine.request('timeline', { lane: 'worker' });
    expect(before[0]!.points.length).toBeGreaterThan(0);
    const engine = await t.restart();
    const ledger = await engine.request('scaleEvents', {});
    const reasons = ledger.map((e) => e.reason);
    expect(reasons.filter((r) => r === 'start')).toHaveLength(2);
    expect(reasons).toContain('shutdown');
    expect(reasons.lastIndexOf('shutdown')).toBeLessThan(reasons.lastIndexOf('start'));
    const after = await engine.request('timeline', { lane: 'worker' });
    expect(after[0]!.points.length).toBeGreaterThanOrEqual(before[0]!.points.length);
    expect(after[0]!.points.some((p) => p.cap === 2)).toBe(true);
  });
});
