// What the machine keeps of the GPUs between readings: a worker's GPU use becomes its lane's cost
// only while it runs a job, nothing on the card during its first job is no measurement (its model
// may still be loading), and costs are saved as they change.
import { describe, expect, it } from 'vitest';
import { GpuBook, type GpuLiveWorker } from '../../../electron/engine/machine/gpu-book.js';
import type { LaneCost } from '../../../electron/engine/machine/lane-cost.js';
import type { MachineSample } from '../../../electron/engine/machine/watcher.js';
import { facts, MiB } from './machine-fixtures.js';

const card = { index: 0, uuid: 'GPU-0', name: 'Card', totalBytes: 24576 * MiB, usedBytes: 0, usedByLanes: 0 };
const sample = (at: number, gpu: Record<string, number>): MachineSample => ({
  facts: { ...facts({ at }), gpu: { source: 'nvidia', cards: [card], at, override: null } },
  workers: Object.entries(gpu).map(([id, mib]) => ({ id, bytes: 100 * MiB, cpuMs: 0, processes: 2, pids: [1], gpuBytes: mib * MiB, gpuCard: mib > 0 ? 'GPU-0' : undefined })),
});

function book() {
  const saved: [string, LaneCost][] = [];
  const b = new GpuBook({ load: () => new Map(), save: (lane, cost) => saved.push([lane, cost]) }, () => {});
  return { b, saved };
}
const ml = new Set(['models']);
const live = (...w: GpuLiveWorker[]) => new Map(w.map((x) => [x.id, x]));

describe('the GPU book', () => {
  it('a busy worker’s GPU use is its lane’s cost, saved; an idle one’s is not', () => {
    const { b, saved } = book();
    b.sampled(sample(1000, { w1: 6000, w2: 6000 }), live({ id: 'w1', lane: 'models', busy: true, since: 900 }, { id: 'w2', lane: 'models', busy: false, since: null }), ml);
    expect(b.costOf('models')).toEqual({ bytes: 6000 * MiB, at: 1000, rounds: 1 });
    expect(saved).toHaveLength(1);
  });

  it('nothing on the card during a worker’s first job is no measurement; on its next job it is', () => {
    const { b } = book();
    const first = live({ id: 'w1', lane: 'models', busy: true, since: 900 });
    for (const at of [1000, 2000, 3000, 4000]) b.sampled(sample(at, { w1: 0 }), first, ml);
    expect(b.costOf('models')).toBeNull();
    b.sampled(sample(5000, { w1: 0 }), live({ id: 'w1', lane: 'models', busy: true, since: 4500 }), ml);
    expect(b.costOf('models')).toEqual({ bytes: 0, at: 5000, rounds: 1 });
  });

  it('a shell lane’s workers are not measured, and a gone worker is forgotten', () => {
    const { b } = book();
    b.sampled(sample(1000, { s1: 500 }), live({ id: 's1', lane: 'worker', busy: true, since: 900 }), ml);
    expect(b.costOf('worker')).toBeNull();
    const inputs = b.inputs([{ name: 'models', workers: [] }], [], 0, false);
    expect(inputs.workers).toEqual([]);
  });
});
