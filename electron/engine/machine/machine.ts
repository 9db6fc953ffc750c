// The machine as the sizing pass reads it: a plain sampler. It keeps the watcher's latest facts
// and what each lane's workers were measured to hold (kept across restarts; an ml lane's GPU cost
// too, gpu-book.ts), and tells its listeners when a new sample is in. It judges and chooses
// nothing: limits.ts, memory-limits.ts, gpu-limits.ts and critical.ts are the rules, and the pass
// (sizer/pass.ts) applies them to what this holds, the card a new ml worker is given included.
import { recordCost, type LaneCost } from './lane-cost.js';
import type { MachineFacts } from './facts.js';
import { MachineWatcher, type MachineSample, type WatcherOptions } from './watcher.js';
import type { WorkerTarget } from './worker-meter.js';
import { GpuBook, type CostStore } from './gpu-book.js';
import type { GpuInputs } from './limits.js';
import { cudaVisibleDevices } from './gpu.js';

/** A live worker as the sampler measures it. */
export interface LiveWorker extends WorkerTarget {
  lane: string;
  /** Running a job (or holding in its persistent command what a job made it load). */
  busy: boolean;
  /** When it started its current job; null when it has none. */
  since: number | null;
  /** The card (nvidia-smi index) it was given as it started, if it was given one. */
  card?: number;
}

/** An ml lane as the GPU's limits need it: its workers in service, and whether it holds anything. */
export interface MlLane {
  name: string;
  workers: readonly string[];
  /** It holds work or workers (waiting, in service or leaving): the cards are worth reading. */
  active: boolean;
}

export interface SamplerDeps {
  watcher: Omit<WatcherOptions, 'workers' | 'sampled'>;
  costs: CostStore;
  /** Where ml lanes' GPU costs are kept; absent: measured again after each start. */
  gpuCosts?: CostStore;
  /** The workers to measure at each sample. */
  workers(): readonly LiveWorker[];
  log(line: string): void;
}

export class MachineSampler {
  private readonly costs: Map<string, LaneCost>;
  /** Workers measured while busy past their first job: a lane whose every worker is, has a cost worth growing on. */
  private readonly measuredIds = new Set<string>();
  /** When each worker's first job began, as first seen: until it moves on, it may still be loading. */
  private readonly firstJob = new Map<string, number>();
  private readonly listeners: (() => void)[] = [];
  private watcher!: MachineWatcher;
  private readonly gpu: GpuBook;
  /** The ml lanes at the last pass; the GPUs are read only while one holds work or workers. */
  private ml = new Set<string>();
  private gpuWanted = false;
  /** One reading of the cards is still owed since the ml lanes went quiet. */
  private gpuLastLook = false;

  private constructor(private readonly d: SamplerDeps) {
    this.costs = d.costs.load();
    this.gpu = new GpuBook(d.gpuCosts, d.log);
  }

  /** Reads the machine once (a bad override throws, naming its variable) and keeps watching it. */
  static async open(d: SamplerDeps): Promise<MachineSampler> {
    const m = new MachineSampler(d);
    m.watcher = await MachineWatcher.open({ ...d.watcher, workers: () => d.workers(), sampled: (s) => m.sampled(s), gpuWanted: () => m.wantsGpu() });
    m.watcher.start();
    return m;
  }

  /** Whether the next sample reads the cards: while an ml lane is active, and once after. */
  private wantsGpu(): boolean {
    const wanted = this.gpuWanted || this.gpuLastLook;
    this.gpuLastLook = false;
    return wanted;
  }

  /** Called after every new sample, once its costs are recorded. */
  onSample(listener: () => void): void {
    this.listeners.push(listener);
  }

  stop(): void {
    this.watcher.stop();
  }

  /** Nothing to size: no reads on the cadence (a power change or resume still reads at once). */
  sleep(): void {
    this.watcher.sleep();
  }

  /** Work arrived: read the machine now and on the cadence again; listeners hear the sample. */
  wake(): Promise<unknown> {
    this.watcher.start();
    return this.watcher.refresh();
  }

  /** Read everything again now (resume, a power change); listeners hear when it is done. */
  refresh(): Promise<unknown> {
    return this.watcher.refresh();
  }

  facts(): MachineFacts {
    return this.watcher.facts;
  }

  costOf(lane: string): LaneCost | null {
    return this.costs.get(lane) ?? null;
  }

  /** What one worker of the lane typically holds on the GPU; null until measured (or where no GPU is read). */
  gpuCostOf(lane: string): LaneCost | null {
    return this.gpu.costOf(lane);
  }

  measured(workerId: string): boolean {
    return this.measuredIds.has(workerId);
  }

  forget(lane: string): void {
    this.costs.delete(lane);
    this.gpu.forget(lane);
  }

  /**
   * What the GPU's limits need of the ml lanes, as the pass observed them; undefined where no
   * NVIDIA card is read.
   */
  gpuInputs(ml: readonly MlLane[]): GpuInputs | undefined {
    const facts = this.watcher.facts;
    if (facts.gpu?.source !== 'nvidia' || ml.length === 0) return undefined;
    return this.gpu.inputs(ml, this.d.workers(), facts.gpu.cards?.[0]?.index ?? 0, cudaVisibleDevices(this.d.watcher.env) !== undefined);
  }

  /**
   * The ml lanes as the last pass saw them: their workers' GPU use is what the cards' readings
   * measure, and the cards are read only while one holds work or workers (one that just got work
   * has them read now rather than at the next sample).
   */
  watchGpusFor(ml: readonly MlLane[]): void {
    this.ml = new Set(ml.map((l) => l.name));
    const wanted = this.watcher.facts.gpu?.source === 'nvidia' && ml.some((l) => l.active);
    if (wanted && !this.gpuWanted) void this.watcher.refresh();
    // The last ml worker just went: one more reading, so the cards are not shown for ever as they
    // were while it held its model ("4.9 GB by Lanes' workers" with none left).
    if (!wanted && this.gpuWanted) {
      this.gpuLastLook = true;
      void this.watcher.refresh();
    }
    this.gpuWanted = wanted;
  }

  private sampled(sample: MachineSample): void {
    const live = new Map(this.d.workers().map((w) => [w.id, w]));
    for (const id of this.measuredIds) if (!live.has(id)) this.measuredIds.delete(id);
    for (const id of this.firstJob.keys()) if (!live.has(id)) this.firstJob.delete(id);
    const changed = new Set<string>();
    for (const usage of sample.workers) {
      const w = live.get(usage.id);
      // An idle worker holds only its runtime (or a loaded model, which a busy one shows too): measuring it would make the lane look cheap.
      if (!w?.busy || usage.bytes === 0) continue;
      if (w.since !== null && !this.firstJob.has(w.id)) this.firstJob.set(w.id, w.since);
      const settles = w.since === null || this.firstJob.get(w.id) !== w.since;
      const next = recordCost(this.costs.get(w.lane), usage.bytes, sample.facts.at, undefined, settles);
      if (!next) continue;
      if (settles) this.measuredIds.add(w.id);
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
    for (const listener of this.listeners) listener();
  }
}
