// What one sizing pass (pass.ts) reads, what carries its decision out, and the snapshot it
// publishes: the pass's ports, apart from its steps so that pass.ts reads as those steps.
import type { MachineStatus } from '../../../shared/model.js';
import type { MachineFacts } from '../machine/facts.js';
import type { GpuInputs, MachineLimits } from '../machine/limits.js';
import type { MlLane } from '../machine/machine.js';
import type { LaneCost } from '../machine/lane-cost.js';
import type { LaneCounts, LaneRow } from '../store/lanes.js';
import type { NotYet } from '../store/jobs.js';
import type { LaneDemand } from './demand.js';
import type { Decision, LaneObservation } from './policy.js';

/** A worker as the pass sees it: plain data the fleet hands over. */
export interface WorkerView {
  id: string;
  lane: string;
  role: 'idle' | 'busy' | 'leaving';
  /** The lane it goes on to after its current job, if it changes lanes. */
  moveTo?: string;
  /** When it took on its current job; null when it has none. */
  since: number | null;
  /** Jobs in its hand (still queued in the store). */
  hand: number;
  /** Leaving only because all work was paused, and still on its job: a resume keeps it. */
  drainedForPause?: boolean;
  /** Leaving, stopped while idle: the ledger counted it out at the stop. */
  countedOut?: boolean;
}

/** What the pass reads, each a narrow port. */
export interface PassInputs {
  /** Lets go of the scheduled times that have come: those jobs are runnable from now. */
  releaseDue(now: number): void;
  lanes: { list(): readonly LaneRow[]; allCounts(): ReadonlyMap<string, LaneCounts> };
  /** Queued jobs not runnable yet, per lane, and the soonest one's moment. */
  notYet(now: number): ReadonlyMap<string, NotYet>;
  workers(): Iterable<WorkerView>;
  /** Until when a lane's next worker waits, its command having died as it started; null if it need not. */
  startsBlockedUntil(lane: string): number | null;
  /** The machine's latest sample and what the lanes' workers were measured to hold. */
  machine: {
    facts(): MachineFacts;
    costOf(lane: string): LaneCost | null;
    measured(workerId: string): boolean;
    /** What the GPUs' limits need of the ml lanes (undefined where no card is read). */
    gpuInputs?(ml: readonly MlLane[]): GpuInputs | undefined;
  };
  paused(): boolean;
  now(): number;
  tickMs: number;
}

/** What carries a decision out: the fleet's mechanism and the scale ledger. */
export interface PassOutputs {
  /** `lanes`: as this pass observed them, what the decision was made on. */
  carryOut(decision: Decision, lanes: readonly LaneObservation[]): void;
  /** Idle workers of these lanes pull: ready work waits there. */
  wake(lanes: readonly string[]): void;
  /** The snapshot of this pass, for everyone who shows it. */
  published(snapshot: PassSnapshot): void;
  /** The ml lanes as this pass saw them: the sampler reads the cards while one holds work or workers. */
  watchGpusFor?(ml: readonly MlLane[]): void;
}

/** What one pass saw and decided, as the status board, the nudge and the tray read it. */
export interface PassSnapshot {
  at: number;
  limits: MachineLimits;
  machine: MachineStatus;
  /** Demand of the lanes that took part; a lane missing here had none. */
  demand: ReadonlyMap<string, LaneDemand>;
}
