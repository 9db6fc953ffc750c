// The engine's workers as a whole: the pool that starts and talks to them, the heartbeat that
// replaces a hung one, and the sizer loop that decides how many each lane runs. Request handlers
// reach it only through FleetPort; what it knows flows out as data (worker counts) and events.
import type { JobSummary, MachineStatus, ScaleReason } from '../../../shared/model.js';
import type { LaneNeeds, LiveWorker, Machine } from '../machine/machine.js';
import type { MachineLimits } from '../machine/limits.js';
import type { CriticalStop } from '../machine/critical.js';
import { workerCgroups } from '../machine/worker-meter.js';
import { ENGINE_VAR } from '../../job-control/containment.js';
import { SizerLoop } from '../sizer/loop.js';
import type { Observation } from '../sizer/policy.js';
import type { Queues } from '../queues/queues.js';
import type { LaneCounts, LaneRow } from '../store/lanes.js';
import type { WorkerCounts } from '../status/lane-status.js';
import { Heartbeat } from '../workers/heartbeat.js';
import type { WorkerLauncher } from '../workers/launcher.js';
import { Pool, type WorkerRecord } from '../workers/pool.js';
import { apply, observe, SizerMemory } from './apply.js';
import type { ScaleLedger } from './ledger.js';
import { shutdown, type Shutdown } from './shutdown.js';
import { EscapeeSweep } from './sweep.js';

/** What request handlers may ask of the fleet, and nothing more. */
export interface FleetPort {
  /** New work in these lanes: idle workers pull, and the sizer looks. */
  jobsArrived(lanes: Iterable<string>): void;
  /** Work left a lane without a worker (a queued job cancelled): the sizer looks. */
  jobsLeft(): void;
  /** A lane was added or its cap changed. The sizer acts before this returns (see Fleet). */
  lanesChanged(): void;
  /** Tells the worker that runs the job, or holds it in hand, to stop or drop it; false if none does. */
  cancel(jobId: number, graceMs: number): boolean;
  /** A lane is gone: its workers stop, and what was remembered of it is forgotten. */
  laneRemoved(name: string): void;
  /** Jobs workers run now, and jobs in their hands (still queued), of a lane or of all. */
  jobsHeld(lane?: string): { running: number[]; inHand: number[] };
}

export interface FleetDeps {
  /** The machine's facts and limits: the ceiling, and what each lane's memory allows. */
  machine: Machine;
  tickMs: number;
  /** Jobs shorter than this on average get jobs in hand (workers/hands.ts); default 25 ms. */
  handBelowMs?: number;
  /** Where each lane's jobs are queued: the local store, or a shared queue on Redis. */
  queues: Queues;
  lanes: { list(): readonly LaneRow[]; allCounts(): ReadonlyMap<string, LaneCounts> };
  ledger: ScaleLedger;
  launcher: WorkerLauncher;
  entry: string;
  heartbeatMs: number;
  logCapBytes: number;
  /** The engine's cgroup for jobs, or null where the OS offers none. */
  cgroupBase: string | null;
  /** Added to every worker's (and so every job's) environment. */
  jobEnv: Record<string, string>;
  logPaths(jobId: number): { stdoutPath: string; stderrPath: string; allPath: string };
  log(line: string): void;
  /** A job changed state: claimed, finished, or given back to the queue. */
  jobChanged(job: JobSummary): void;
  /** Something a lane's status shows moved (a worker started, went idle, exited). */
  changed(): void;
  /** A sizer pass ran: what the machine allows may have moved with it. */
  passed(): void;
  /** A person paused all work. */
  paused(): boolean;
  /** A worker of the lane had its command loaded after `ms` (a job waited for it). */
  loaded(lane: string, ms: number): void;
}

export class Fleet implements FleetPort {
  private readonly pool: Pool;
  private readonly loop: SizerLoop;
  private readonly heartbeat: Heartbeat;
  private readonly memory = new SizerMemory();
  private stopping: Shutdown | null = null;
  private observed: Observation | null = null;
  private lastLimits: MachineLimits | null = null;
  /** Only needed where jobs get no cgroup of their own (see sweep.ts). */
  private readonly sweep: EscapeeSweep | null;

  constructor(private readonly d: FleetDeps) {
    this.pool = new Pool(
      d.queues,
      {
        now: Date.now,
        workerCommand: (lane) => {
          const row = d.lanes.list().find((l) => l.name === lane);
          return row?.workerCommand ? { argv: row.workerCommand, cwd: row.workerCwd } : null;
        },
        logPaths: d.logPaths,
        jobChanged: (job) => {
          if (job.state === 'succeeded') this.memory.succeeded(job.lane);
          if (job.state !== 'running') this.sweep?.soon();
          d.jobChanged(job);
          // Counts moved even when the sizer has nothing to decide: the lane's row must follow.
          d.changed();
        },
        fleetChanged: () => {
          this.heartbeat.update();
          this.tellSharedLanes();
          this.loop.poke();
          d.changed();
        },
        workerLost: (w, reason, detail, atStart) => this.lost(w, reason, detail, atStart),
        loaded: (lane, ms) => d.loaded(lane, ms),
        workerEnv: (lane, id) => d.machine.workerEnv(lane, id),
        workerLeft: (w, why) => {
          // Counted as in service until it went: the others still finishing are, too.
          const c = this.pool.counts().get(w.lane);
          this.d.ledger.lost(w.lane, (c?.idle ?? 0) + (c?.busy ?? 0) + (c?.leaving ?? 0), why.reason, why.detail);
        },
        log: d.log,
      },
      { entry: d.entry, launcher: d.launcher, logCapBytes: d.logCapBytes, stopTimeoutMs: 5_000, cgroupBase: d.cgroupBase, jobEnv: d.jobEnv, handBelowMs: d.handBelowMs },
    );
    this.heartbeat = new Heartbeat(this.pool, d.heartbeatMs, Date.now, (w) => {
      d.log(`worker ${w.id} stopped answering; replacing it`);
      this.pool.kill(w.id, { reason: 'unresponsive', detail: 'worker stopped answering' });
    });
    const failed = (error: unknown) => d.log(`a sizer pass failed: ${(error as Error)?.stack ?? String(error)}`);
    this.loop = new SizerLoop({ observe: () => this.observe(), apply: (decision) => this.apply(decision), failed }, d.tickMs, Date.now);
    this.sweep = d.cgroupBase === null && process.platform === 'linux' ? new EscapeeSweep(() => this.pool.runningJobs(), d.log, d.jobEnv[ENGINE_VAR] ?? '') : null;
  }

  start(): void {
    this.loop.start();
  }

  /** Records are waiting for room on a full disk: nothing new should be taken on meanwhile. */
  get diskFull(): boolean {
    return this.pool.diskFull;
  }

  /** Worker processes alive across all lanes, including those on their way out. */
  alive(): number {
    return this.pool.workers.size;
  }

  workerCounts(): Map<string, WorkerCounts> {
    return this.pool.counts();
  }

  jobsArrived(lanes: Iterable<string>): void {
    for (const lane of lanes) this.pool.wake(lane);
    this.loop.poke();
  }

  jobsLeft(): void {
    this.loop.poke();
  }

  lanesChanged(): void {
    // At once rather than on the next turn: the answer to a cap change, and the lane event it
    // raises, should already show what the change did (idle workers stopped, new ones started),
    // not a status from just before the sizer acted on it.
    this.loop.pass();
  }

  cancel(jobId: number, graceMs: number): boolean {
    return this.pool.cancel(jobId, graceMs);
  }

  laneRemoved(name: string): void {
    this.pool.stopLane(name);
    this.memory.forget(name);
    this.d.machine.forget(name);
  }

  /** Take no more work; let running jobs finish within `graceMs`; then end the rest. */
  async shutdown(graceMs: number): Promise<void> {
    this.loop.stop();
    this.sweep?.stop();
    this.stopping = shutdown(this.pool, this.d.queues, graceMs, this.d.log);
    await this.stopping.done;
    this.heartbeat.stop();
  }

  hurry(graceMs: number): void {
    this.stopping?.hurry(graceMs);
  }

  jobsHeld(lane?: string): { running: number[]; inHand: number[] } {
    const running: number[] = [];
    const inHand: number[] = [];
    for (const w of this.pool.workers.values()) {
      if (lane !== undefined && w.lane !== lane) continue;
      if (w.job) running.push(w.job.id);
      for (const h of w.held) inHand.push(h.id);
    }
    return { running, inHand };
  }

  /** Until when a lane holds off starting workers (its command keeps dying at start); null if it does not. */
  startsBlockedUntil(lane: string): number | null {
    const until = this.memory.startFailures.get(lane)?.until ?? null;
    return until !== null && until > Date.now() ? until : null;
  }

  /** The machine's limits at the last pass (before the first: worked out now). */
  limits(): MachineLimits {
    if (!this.lastLimits) this.observe();
    return this.lastLimits!;
  }

  /** What one worker of the lane typically holds (bytes), measured; null until it is. */
  costOf(lane: string): number | null {
    return this.d.machine.costOf(lane)?.bytes ?? null;
  }

  /** What one worker of an ml lane typically holds on the GPU (bytes), measured; null until it is. */
  gpuCostOf(lane: string): number | null {
    return this.d.machine.gpuCostOf(lane)?.bytes ?? null;
  }

  machineStatus(): MachineStatus {
    return this.d.machine.status(this.limits());
  }

  /** The machine's facts moved (a new reading): the sizer looks again now, so the limits it reports are this reading's. */
  machineMoved(): void {
    this.loop.pass();
  }

  /** Memory is critically low: this worker stops now, its job queued again with its attempt given back. */
  criticalStop(stop: CriticalStop): void {
    this.d.log(stop.text);
    this.pool.kill(stop.worker, { reason: 'machine', detail: stop.text, refund: true });
  }

  /** The live workers, as the machine's meter measures them. */
  liveWorkers(): LiveWorker[] {
    const live: LiveWorker[] = [];
    for (const w of this.pool.workers.values()) {
      if (w.proc.pid === undefined) continue;
      live.push({ id: w.id, pid: w.proc.pid, lane: w.lane, busy: w.job !== null, since: w.job?.since ?? null, cgroups: workerCgroups(this.d.cgroupBase, w.proc.pid, w.job) });
    }
    return live;
  }

  private observe(): Observation {
    const now = Date.now();
    const inputs = { now, tickMs: this.d.tickMs, ceiling: Infinity, lanes: this.d.lanes.list(), counts: this.d.lanes.allCounts(), delayed: this.d.queues.delayed(now) };
    const seen = observe(inputs, this.pool, this.memory);
    const seenBy = new Map(seen.lanes.map((l) => [l.name, l]));
    // Every lane has limits to show, one that sat the pass out too: what memory would let it run.
    const needs = inputs.lanes.map((l): LaneNeeds => {
      const o = seenBy.get(l.name);
      return { name: l.name, class: l.class, cap: l.cap, demand: o ? Math.max(0, o.waiting) + o.busy.length : 0, workers: o ? [...o.idle, ...o.busy] : [], leaving: o?.leaving ?? 0 };
    });
    const limits = this.d.machine.limits(needs);
    this.lastLimits = limits;
    for (const l of seen.lanes) {
      const m = limits.lanes.get(l.name);
      l.limit = m?.limit ?? Infinity;
      l.limitText = m && (m.limitedBy === 'memory' || m.limitedBy === 'gpu') ? m.text : null;
    }
    this.observed = { ...seen, ceiling: limits.ceiling, ceilingText: limits.limits[0]!.text, paused: this.d.paused() };
    return this.observed;
  }

  private apply(decision: Parameters<typeof apply>[0]): void {
    this.d.ledger.batch(() => apply(decision, Date.now(), this.pool, this.memory, this.d.ledger, this.d.lanes.list()));
    // Work that is ready while a worker idles (a retry whose wait just ended): it pulls.
    for (const lane of this.observed?.lanes ?? []) if (lane.waiting > 0 && lane.idle.length > 0) this.pool.wake(lane.name);
    this.heartbeat.update();
    // Every pass follows something that moved (work arrived, a worker came or went, a tick):
    // the lanes' status may show it even when the sizer had nothing to do.
    this.d.changed();
    this.d.passed();
  }

  /** What this engine runs of each shared lane, for the other engines' nudges. */
  private tellSharedLanes(): void {
    for (const q of this.d.queues.sharedLanes()) {
      const { workers, busy } = this.pool.laneWorkers(q.lane);
      q.workersChanged(workers, busy);
    }
  }

  /** New work in a shared lane seen from Redis (another engine queued it, Redis came back): idle workers pull. */
  sharedWorkArrived(lane: string): void {
    this.pool.wake(lane);
    this.loop.poke();
  }

  /**
   * Only a worker that dies before it is ready holds its lane back: one lost mid-job (killed, or
   * killed by its job) says nothing about the next one, and its job's retry waits its own backoff.
   */
  private lost(w: WorkerRecord, reason: ScaleReason, detail: string, atStart: boolean): void {
    if (reason === 'crash' && atStart) this.memory.workerFailed(w.lane, Date.now());
    const c = this.pool.counts().get(w.lane);
    const until = this.startsBlockedUntil(w.lane);
    const wait = until === null ? '' : `; the next worker waits ${Math.round((until - Date.now()) / 1000)} s`;
    this.d.ledger.lost(w.lane, (c?.idle ?? 0) + (c?.busy ?? 0), reason, detail + wait);
  }
}
