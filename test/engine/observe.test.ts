// What the sizer is shown of the lanes: those with work or workers, jobs in hands counted as
// taken, and what it remembers of a lane forgotten once the lane has neither.
import { describe, expect, it } from 'vitest';
import { observe, SizerMemory, type ObserveInputs } from '../../electron/engine/fleet/apply.js';
import type { Pool } from '../../electron/engine/workers/pool.js';
import type { WorkerRecord, WorkerState } from '../../electron/engine/workers/pool-types.js';
import type { LaneCounts, LaneRow } from '../../electron/engine/store/lanes.js';

const row = (name: string): LaneRow => ({ name, class: 'cpu', cap: 1, workerCommand: null, workerCwd: null, timeoutMs: null, nudgeQuietUntil: null, nudgeQuietBacklog: null, queue: null });
const queued = (n: number): LaneCounts => ({ queued: n, running: 0, succeeded: 0, failed: 0, cancelled: 0 });
const worker = (id: string, lane: string, state: WorkerState, more: Partial<WorkerRecord> = {}) => ({ id, lane, state, job: null, held: [], ...more }) as unknown as WorkerRecord;
const poolOf = (...ws: WorkerRecord[]) => ({ workers: new Map(ws.map((w) => [w.id, w])) }) as unknown as Pool;

function inputs(over: Partial<ObserveInputs> = {}): ObserveInputs {
  return {
    now: 1_000,
    tickMs: 60_000,
    ceiling: 2,
    lanes: ['idle-a', 'work', 'retry', 'has-worker', 'moved-to', 'idle-b'].map(row),
    counts: new Map([
      ['work', queued(3)],
      ['retry', queued(1)],
    ]),
    delayed: new Map([['retry', { n: 1, next: 5_000 }]]),
    ...over,
  };
}

describe('observing the lanes for a pass', () => {
  it('shows the lanes with work, a retry to come or a worker of their own or on its way; the rest sit the pass out', () => {
    const pool = poolOf(worker('w1', 'has-worker', 'busy', { moveTo: 'moved-to' }));
    const seen = observe(inputs(), pool, new SizerMemory());
    expect(seen.lanes.map((l) => l.name).sort()).toEqual(['has-worker', 'moved-to', 'retry', 'work']);
    const byName = new Map(seen.lanes.map((l) => [l.name, l]));
    expect(byName.get('has-worker')).toMatchObject({ leaving: 1, busy: [] });
    expect(byName.get('moved-to')).toMatchObject({ arriving: 1, heldSince: 1_000 });
    expect(byName.get('retry')).toMatchObject({ waiting: 0, nextRetryAt: 5_000 });
  });

  it('counts jobs in a worker’s hand as taken, not waiting', () => {
    const pool = poolOf(worker('w1', 'work', 'busy', { held: [{ id: 8, attempt: 1 }, { id: 9, attempt: 1 }] }));
    const l = observe(inputs(), pool, new SizerMemory()).lanes.find((x) => x.name === 'work')!;
    expect([l.waiting, l.busy]).toEqual([1, ['w1']]);
  });

  it('forgets since when a lane held or waited for a worker once it has neither work nor worker', () => {
    const memory = new SizerMemory();
    observe(inputs(), poolOf(), memory);
    expect(memory.waitingSince.get('work')).toBe(1_000);
    observe(inputs({ now: 2_000, counts: new Map() }), poolOf(), memory);
    expect(memory.waitingSince.has('work')).toBe(false);
  });
});
