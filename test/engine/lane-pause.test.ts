// Pausing one lane (`pause` with `lane`): a real engine with two shell lanes. The paused lane's
// running job finishes, nothing new starts there, the other lane goes on; its status says so and
// until when (it is kept across a restart); a resume, or the end of its span, lets it run again.
import { describe, expect, it } from 'vitest';
import { decide } from '../../electron/engine/sizer/policy.js';
import { engineEachTest, jobsFinished, startEngine, until } from '../support/engine.js';
import { lane, observe } from './policy-fixtures.js';

const t = engineEachTest();
const laneOf = (name: string) => t.engine.status().lanes.find((l) => l.name === name)!;

describe('pausing one lane', () => {
  it('holds that lane only, says until when, and runs its work once resumed', async () => {
    await t.engine.request('addLane', { name: 'deploy', cap: 1 });
    const first = await t.engine.request('addJob', { lane: 'deploy', argv: ['sleep', '0.5'] });
    await until(t.engine, () => laneOf('deploy').running === 1, 10_000, 'the first deploy job running');
    const before = Date.now();
    const { paused } = await t.engine.request('pause', { lane: 'deploy', forSeconds: 15 * 60 });
    expect(paused!.until! - before).toBeGreaterThanOrEqual(15 * 60_000 - 1000);
    const held = await t.engine.request('addJob', { lane: 'deploy', argv: ['true'] });
    const other = await t.engine.request('addJob', { argv: ['true'] });
    // The running job finishes; the other lane's job runs; the held one does not start.
    const [f, o] = await jobsFinished(t.engine, [first.id, other.id]);
    expect([f!.state, o!.state]).toEqual(['succeeded', 'succeeded']);
    await until(t.engine, () => laneOf('deploy').workers === 0, 10_000, 'the paused lane without workers');
    expect((await t.engine.request('job', { id: held.id })).state).toBe('queued');
    expect(laneOf('deploy')).toMatchObject({ mood: 'paused', etaState: 'paused', nudge: null, paused: { until: paused!.until } });
    expect(t.engine.status().paused).toBeNull();
    expect(laneOf('worker').paused).toBeUndefined();
    const ledger = await t.engine.request('scaleEvents', { lane: 'deploy' });
    expect(ledger.some((e) => e.reason === 'pause' && /this lane paused/.test(e.detail))).toBe(true);

    await t.engine.request('resume', { lane: 'deploy' });
    const [h] = await jobsFinished(t.engine, [held.id]);
    expect(h!.state).toBe('succeeded');
    expect(laneOf('deploy').paused).toBeUndefined();
  });

  it('is kept across a restart, and ends by itself when its span is over', async () => {
    await t.engine.request('addLane', { name: 'deploy', cap: 1 });
    await t.engine.request('pause', { lane: 'deploy', forSeconds: 2 });
    const held = await t.engine.request('addJob', { lane: 'deploy', argv: ['true'] });
    const dir = t.engine.dataDir;
    await t.engine.stop({ graceMs: 1000 });
    const again = await startEngine(dir);
    try {
      expect(again.status().lanes.find((l) => l.name === 'deploy')!.paused).toBeDefined();
      // No one resumes it: at the end of its 2 s it runs.
      const [h] = await jobsFinished(again, [held.id], 20_000);
      expect(h!.state).toBe('succeeded');
      expect(h!.startedAt!).toBeGreaterThanOrEqual(again.status().lanes.find((l) => l.name === 'deploy')!.paused?.until ?? 0);
    } finally {
      await again.stop({ graceMs: 1000 });
    }
  });

  it('a bad lane or both a span and a moment: refused, naming the field, nothing paused', async () => {
    await expect(t.engine.request('pause', { lane: 'nope', forSeconds: 60 })).rejects.toMatchObject({ code: 'not_found', field: 'lane' });
    await expect(t.engine.request('pause', { forSeconds: 60, until: Date.now() + 60_000 })).rejects.toMatchObject({ code: 'bad_request', field: 'until' });
    await expect(t.engine.request('pause', { until: Date.now() - 1 })).rejects.toMatchObject({ code: 'bad_request', field: 'until' });
    expect(t.engine.status().paused).toBeNull();
    expect(t.engine.status().lanes.every((l) => l.paused === undefined)).toBe(true);
  });
});

describe('the policy with one lane paused', () => {
  it('drains the paused lane, starts nothing there, and wakes when its pause ends', () => {
    const o = observe(4, [
      { ...lane('held', { cap: 2, waiting: 9 }), idle: ['i1'], busy: ['b1'], pausedUntil: 5_000 },
      lane('free', { cap: 2, waiting: 9 }),
    ]);
    const d = decide({ ...o, now: 1_000 });
    const held = d.actions.filter((a) => a.lane === 'held');
    expect(held.map((a) => [a.kind, 'reason' in a ? a.reason : null])).toEqual([
      ['stop', 'pause'],
      ['drain', 'pause'],
    ]);
    expect(d.actions.some((a) => a.lane === 'free' && a.kind === 'start')).toBe(true);
    expect(d.wakeAt).toBe(5_000);
  });
});
