// The machine as the fleet uses it: the watcher's latest facts, what each lane's workers cost
// (measured, kept across restarts; an ml lane's GPU cost too, gpu-book.ts), and the limits those
// give for the lanes as they are now. Mechanism only: the rules are limits.ts, memory-limits.ts,
// gpu-limits.ts and critical.ts, all pure.
import type { LaneClass, MachineStatus } from '../../../shared/model.js';
import { criticalStop, type BusyLane, type CriticalStop } from './critical.js';
import { INITIAL_LIMITS_STATE, machineLimits, type LimitsState, type MachineLimits } from './limits.js';
import { recordCost, type LaneCost } from './lane-cost.js';
import { PRESUMED_BYTES } from './memory-limits.js';
import { MachineWatcher, type MachineSample, type WatcherOptions } from './watcher.js';
import type { WorkerTarget } from './worker-meter.js';
import { GpuBook, gpuStatus, type CostStore } from './gpu-book.js';
import type { CardBudget } from './gpu-limits.js';
import { cudaVisibleDevices } from './gpu.js';

/** A live worker as the fleet knows it. */
export interface LiveWorker extends WorkerTarget {
  lane: string;
  /** Running a job (or holding in its persistent command what a job made it load). */
  busy: boolean;
  /** When it started its current job; null when it has none. */
  since: number | null;
}

/** One lane as the limits need it. */
export interface LaneNeeds {
  name: string;
  class: LaneClass;
  cap: number;
  /** Work it holds: waiting + busy. */
  demand: number;
  /** Ids of its workers in service (idle + busy). */
  workers: readonly string[];
  leaving: number;
}

export interface MachineDeps {
  watcher: Omit<WatcherOptions, 'workers' | 'sampled'>;
  costs: CostStore;
  /** Where ml lanes' GPU costs are kept; absent: measured again after each start. */
  gpuCosts?: CostStore;
  workers(): readonly LiveWorker[];
  /** The facts moved: the sizer looks again, the status shows it. */
  moved(): void;
  /** Memory is critically low: stop this worker now, its job queued again without spending an attempt. */
  critical(stop: CriticalStop): void;
  log(line: string): void;
}

export class Machine {
  private readonly costs: Map<string, LaneCost>;
  /** Workers measured while busy: a lane whose every worker is, has a cost worth growing on. */
  private readonly measured = new Set<string>();
  private state: LimitsState = INITIAL_LIMITS_STATE;
  private lastCritical: number | null = null;
  private watcher!: MachineWatcher;
  private readonly gpu: GpuBook;
  /** The ml lanes at the last pass; the GPUs are read only while one holds work or workers. */
  private ml = new Set<string>();
  private gpuWanted = false;
  private budgets: CardBudget[] | undefined;

  private constructor(private readonly d: MachineDeps) {
    this.costs = d.costs.load();
    this.gpu = new GpuBook(d.gpuCosts, d.log);
  }

  /** Reads the machine once (a bad override throws, naming its variable) and keeps watching it. */
  static async open(d: MachineDeps): Promise<Machine> {
    const m = new Machine(d);
    m.watcher = await MachineWatcher.open({ ...d.watcher, workers: () => d.workers(), sampled: (s) => m.sampled(s), gpuWanted: () => m.gpuWanted });
    m.watcher.start();
    return m;
  }

  stop(): void {
    this.watcher.stop();
  }

  /** Read everything again now (resume, a power change); the sizer hears when it is done. */
  refresh(): Promise<unknown> {
    return this.watcher.refresh();
  }

  costOf(lane: string): LaneCost | null {
    return this.costs.get(lane) ?? null;
  }

  /** What one worker of the lane typically holds on the GPU; null until measured (or where no GPU is read). */
  gpuCostOf(lane: string): LaneCost | null {
    return this.gpu.costOf(lane);
  }

  forget(lane: string): void {
    this.costs.delete(lane);
    this.gpu.forget(lane);
  }

  /**
   * Added to a new worker's environment: with several cards, the one with the most room for it
   * (CUDA_VISIBLE_DEVICES), unless the person set CUDA_VISIBLE_DEVICES for Lanes themselves.
   */
  workerEnv(lane: string, id: string): Record<string, string> {
    if (!this.ml.has(lane) || !this.budgets || this.budgets.length < 2 || cudaVisibleDevices(this.d.watcher.env) !== undefined) return {};
    return this.gpu.assign(id, this.budgets, this.d.workers(), this.ml);
  }

  /** The limits for the lanes as they are now. Idempotent for one reading, so status and sizer may both ask. */
  limits(lanes: readonly LaneNeeds[]): MachineLimits {
    const inputs = lanes.map((l) => ({
      name: l.name,
      class: l.class,
      cap: l.cap,
      demand: l.demand,
      workers: l.workers.length,
      leaving: l.leaving,
      measured: l.workers.filter((id) => this.measured.has(id)).length,
      cost: this.costs.get(l.name) ?? null,
    }));
    const facts = this.watcher.facts;
    const ml = lanes.filter((l) => l.class === 'ml');
    this.ml = new Set(ml.map((l) => l.name));
    const wanted = facts.gpu?.source === 'nvidia' && ml.some((l) => l.demand > 0 || l.workers.length > 0 || l.leaving > 0);
    // An ml lane just got work: the cards are read now rather than at the next sample.
    if (wanted && !this.gpuWanted) void this.watcher.refresh();
    this.gpuWanted = wanted;
    const gpu = facts.gpu?.source === 'nvidia' && ml.length > 0 ? this.gpu.inputs(ml, this.d.workers(), this.budgets?.[0]?.index ?? facts.gpu.cards?.[0]?.index ?? 0) : undefined;
    const { limits, state } = machineLimits(facts, inputs, this.state, gpu);
    this.state = state;
    this.budgets = limits.gpus;
    return limits;
  }

  status(limits: MachineLimits): MachineStatus {
    const facts = this.watcher.facts;
    const core = limits.limits.find((l) => l.reason === 'cores' || l.reason === 'container');
    return {
      cores: facts.cpu.cores,
      coreCeiling: core?.workers ?? limits.ceiling,
      memoryBytes: Math.round(limits.memory.bytes),
      power: facts.power.source,
      personActive: limits.presence === 'unknown' ? null : limits.presence === 'active',
      ceiling: limits.ceiling,
      limitedBy: limits.limitedBy,
      text: limits.text,
      ...gpuStatus(facts),
    };
  }

  private sampled(sample: MachineSample): void {
    const live = new Map(this.d.workers().map((w) => [w.id, w]));
    for (const id of this.measured) if (!live.has(id)) this.measured.delete(id);
    const changed = new Set<string>();
    for (const usage of sample.workers) {
      const w = live.get(usage.id);
      // An idle worker holds only its runtime (or a loaded model, which a busy one shows too): measuring it would make the lane look cheap.
      if (!w?.busy || usage.bytes === 0) continue;
      const next = recordCost(this.costs.get(w.lane), usage.bytes, sample.facts.at);
      if (!next) continue;
      this.measured.add(w.id);
      if (next !== this.costs.get(w.lane)) changed.add(w.lane);
      this.costs.set(w.lane, next);
    }
    for (const lane of changed) {
      try {
        this.d.costs.save(lane, this.costs.get(lane)!);
      } catch (error) {
        // Kept in memory; measured again after a restart.
        this.d.log(`could not keep the measured cost of "${lane}": ${(error as Error).message}`);
      }
    }
    if (sample.facts.gpu?.source === 'nvidia') this.gpu.sampled(sample, live, this.ml);
    this.checkCritical(sample, live);
    this.d.moved();
  }

  private checkCritical(sample: MachineSample, live: Map<string, LiveWorker>): void {
    const byLane = new Map<string, BusyLane & { busy: { id: string; since: number }[] }>();
    for (const w of live.values()) {
      if (!w.busy || w.since === null) continue;
      const lane = byLane.get(w.lane) ?? { name: w.lane, costBytes: this.costs.get(w.lane)?.bytes ?? PRESUMED_BYTES.cpu, busy: [] };
      lane.busy.push({ id: w.id, since: w.since });
      byLane.set(w.lane, lane);
    }
    const { stop, lastAt } = criticalStop(sample.facts, [...byLane.values()], this.lastCritical);
    this.lastCritical = lastAt;
    if (stop) this.d.critical(stop);
  }
}
