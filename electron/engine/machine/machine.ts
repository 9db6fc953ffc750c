// The machine as the sizing pass reads it: a plain sampler. It keeps the watcher's latest facts
// and what each lane's workers were measured to hold (kept across restarts), and tells its
// listener when a new sample is in. It judges nothing: limits.ts, memory-limits.ts and
// critical.ts are the rules, and the pass (sizer/pass.ts) applies them to what this holds.
import { recordCost, type LaneCost } from './lane-cost.js';
import type { MachineFacts } from './facts.js';
import { MachineWatcher, type MachineSample, type WatcherOptions } from './watcher.js';
import type { WorkerTarget } from './worker-meter.js';

/** A live worker as the sampler measures it. */
export interface LiveWorker extends WorkerTarget {
  lane: string;
  /** Running a job (or holding in its persistent command what a job made it load). */
  busy: boolean;
}

export interface SamplerDeps {
  watcher: Omit<WatcherOptions, 'workers' | 'sampled'>;
  costs: { load(): Map<string, LaneCost>; save(lane: string, cost: LaneCost): void };
  /** The workers to measure at each sample. */
  workers(): readonly LiveWorker[];
  log(line: string): void;
}

export class MachineSampler {
  private readonly costs: Map<string, LaneCost>;
  /** Workers measured while busy: a lane whose every worker is, has a cost worth growing on. */
  private readonly measuredIds = new Set<string>();
  private readonly listeners: (() => void)[] = [];
  private watcher!: MachineWatcher;

  private constructor(private readonly d: SamplerDeps) {
    this.costs = d.costs.load();
  }

  /** Reads the machine once (a bad override throws, naming its variable) and keeps watching it. */
  static async open(d: SamplerDeps): Promise<MachineSampler> {
    const m = new MachineSampler(d);
    m.watcher = await MachineWatcher.open({ ...d.watcher, workers: () => d.workers(), sampled: (s) => m.sampled(s) });
    m.watcher.start();
    return m;
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

  measured(workerId: string): boolean {
    return this.measuredIds.has(workerId);
  }

  forget(lane: string): void {
    this.costs.delete(lane);
  }

  private sampled(sample: MachineSample): void {
    const live = new Map(this.d.workers().map((w) => [w.id, w]));
    for (const id of this.measuredIds) if (!live.has(id)) this.measuredIds.delete(id);
    const changed = new Set<string>();
    for (const usage of sample.workers) {
      const w = live.get(usage.id);
      // An idle worker holds only its runtime (or a loaded model, which a busy one shows too): measuring it would make the lane look cheap.
      if (!w?.busy || usage.bytes === 0) continue;
      const next = recordCost(this.costs.get(w.lane), usage.bytes, sample.facts.at);
      if (!next) continue;
      this.measuredIds.add(w.id);
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
    for (const listener of this.listeners) listener();
  }
}
