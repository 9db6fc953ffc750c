// What the machine remembers about the GPUs between readings: each ml lane's GPU cost (measured,
// kept across restarts), which workers were measured, what each held at the last reading, and the
// card each was seen on. Mechanism beside machine.ts; the rules are gpu-limits.ts, and the card a
// new worker is given is the sizing pass's choice (sizer/pass.ts).
import type { GpuStatus, MachineStatus } from '../../../shared/model.js';
import type { MachineFacts } from './facts.js';
import { cardBudgets, type GpuWorker } from './gpu-limits.js';
import type { GpuInputs } from './limits.js';
import { recordCost, type LaneCost } from './lane-cost.js';
import type { MachineSample } from './watcher.js';

export interface CostStore {
  load(): Map<string, LaneCost>;
  save(lane: string, cost: LaneCost): void;
}

/** A live worker as the book needs it. */
export interface GpuLiveWorker {
  id: string;
  lane: string;
  busy: boolean;
  /** When it started its current job; null when it has none. */
  since?: number | null;
  /** The card (nvidia-smi index) it was given with CUDA_VISIBLE_DEVICES as it started, if it was. */
  card?: number;
}

export class GpuBook {
  private readonly costs: Map<string, LaneCost>;
  private readonly measured = new Set<string>();
  /** GPU bytes each worker used at the last reading of the cards. */
  private readonly gpuBytes = new Map<string, number>();
  /** The card (nvidia-smi index) each worker was last seen holding its memory on. */
  private readonly cards = new Map<string, number>();
  /** The first job each worker was seen running (its start): until it moves on, it may still be loading. */
  private readonly firstJob = new Map<string, number>();

  constructor(
    private readonly store: CostStore | undefined,
    private readonly log: (line: string) => void,
  ) {
    this.costs = store?.load() ?? new Map();
  }

  costOf(lane: string): LaneCost | null {
    return this.costs.get(lane) ?? null;
  }

  forget(lane: string): void {
    this.costs.delete(lane);
  }

  /**
   * The ml lanes' workers on the cards (where each was seen, else the card it was given, else the
   * first) and what is known of each lane, for gpu-limits.ts.
   */
  inputs(ml: readonly { name: string; workers: readonly string[] }[], live: readonly GpuLiveWorker[], first: number, pinned: boolean): GpuInputs {
    const names = new Set(ml.map((l) => l.name));
    const inService = new Set(ml.flatMap((l) => l.workers));
    const workers: GpuWorker[] = live
      .filter((w) => names.has(w.lane))
      .map((w) => ({ lane: w.lane, card: this.cards.get(w.id) ?? w.card ?? first, bytes: this.gpuBytes.get(w.id) ?? 0, leaving: !inService.has(w.id) }));
    const lanes = new Map(ml.map((l) => [l.name, { measured: l.workers.filter((id) => this.measured.has(id)).length, cost: this.costs.get(l.name) ?? null }]));
    return { workers, lanes, pinned };
  }

  /** A reading of the cards: busy workers' GPU use becomes their lane's cost, as RAM does in machine.ts. */
  sampled(sample: MachineSample, live: ReadonlyMap<string, GpuLiveWorker>, ml: ReadonlySet<string>): void {
    for (const map of [this.gpuBytes, this.cards, this.firstJob]) for (const id of map.keys()) if (!live.has(id)) map.delete(id);
    for (const id of this.measured) if (!live.has(id)) this.measured.delete(id);
    const changed = new Set<string>();
    const cards = sample.facts.gpu?.source === 'nvidia' ? (sample.facts.gpu.cards ?? []) : [];
    for (const usage of sample.workers) {
      if (usage.gpuBytes === undefined) continue;
      this.gpuBytes.set(usage.id, usage.gpuBytes);
      // Where it is seen to hold its memory is where it is, given a card or not (CUDA's default device is not always nvidia-smi's first).
      const seen = cards.find((c) => c.uuid === usage.gpuCard);
      if (seen) this.cards.set(usage.id, seen.index);
      const w = live.get(usage.id);
      // Idle, a worker may not have loaded its model yet: it would make the lane look cheap.
      if (!w?.busy || !ml.has(w.lane)) continue;
      // Nothing on the card during its first job may be a model still loading (a minute, for a big
      // one): a worker counts as using no GPU only once it has gone on to another job.
      if (w.since != null && !this.firstJob.has(w.id)) this.firstJob.set(w.id, w.since);
      if (usage.gpuBytes === 0 && (w.since == null || this.firstJob.get(w.id) === w.since)) continue;
      const next = recordCost(this.costs.get(w.lane), usage.gpuBytes, sample.facts.at, 0);
      if (!next) continue;
      this.measured.add(w.id);
      if (next !== this.costs.get(w.lane)) changed.add(w.lane);
      this.costs.set(w.lane, next);
    }
    for (const lane of changed) {
      try {
        this.store?.save(lane, this.costs.get(lane)!);
      } catch (error) {
        this.log(`could not keep the measured GPU cost of "${lane}": ${(error as Error).message}`);
      }
    }
  }
}

/** The GPU part of the machine's status: where its memory is known from, and each card. */
export function gpuStatus(facts: MachineFacts): Pick<MachineStatus, 'gpuMemory' | 'gpus' | 'gpuError' | 'gpuReadAt'> {
  const g = facts.gpu;
  if (!g) return { gpuMemory: 'unknown' };
  if (g.source === 'unified') return { gpuMemory: 'unified' };
  const budgets = cardBudgets(g.cards ?? [], g.override);
  const gpus = (g.cards ?? []).map(
    (c): GpuStatus => ({
      index: c.index,
      name: c.name,
      totalBytes: c.totalBytes,
      usedBytes: c.usedBytes,
      heldByLanesBytes: c.usedByLanes,
      forWorkersBytes: Math.round(budgets.find((b) => b.uuid === c.uuid)?.bytes ?? 0),
    }),
  );
  return { gpuMemory: 'nvidia', gpus, ...(g.error ? { gpuError: g.error } : {}), ...(g.at !== null ? { gpuReadAt: g.at } : {}) };
}
