// The engine's workers as a whole: the pool that starts and talks to them, the heartbeat that
// replaces a hung one, and the sizer loop that decides how many each lane runs. Request handlers
// reach it only through FleetPort; what it knows flows out as data (worker counts) and events.
import type { ScaleReason } from '../../../shared/model.js';
import { SizerLoop } from '../sizer/loop.js';
import type { JobStore, RunningJob } from '../store/jobs.js';
import type { LaneCounts, LaneRow } from '../store/lanes.js';
import type { WorkerCounts } from '../status/lane-status.js';
import { Heartbeat } from '../workers/heartbeat.js';
import type { WorkerLauncher } from '../workers/launcher.js';
import { Pool, type WorkerRecord } from '../workers/pool.js';
import { apply, observe, SizerMemory } from './apply.js';
import type { ScaleLedger } from './ledger.js';
import { shutdown, type Shutdown } from './shutdown.js';

/** What request handlers may ask of the fleet, and nothing more. */
export interface FleetPort {
  /** New work in these lanes: idle workers pull, and the sizer looks. */
  jobsArrived(lanes: Iterable<string>): void;
  /** Work left a lane without a worker (a queued job cancelled): the sizer looks. */
  jobsLeft(): void;
  /** A lane was added or its cap changed. The sizer acts before this returns (see Fleet). */
  lanesChanged(): void;
  /** Stop a running job: TERM its processes, KILL after `graceMs`. The outcome arrives as a job event. */
  cancel(jobId: number, graceMs: number): void;
  /** A lane is gone: its workers stop, and what was remembered of it is forgotten. */
  laneRemoved(name: string): void;
}

export interface FleetDeps {
  ceiling: number;
  tickMs: number;
  jobs: JobStore;
  lanes: { list(): readonly LaneRow[]; allCounts(): ReadonlyMap<string, LaneCounts> };
  ledger: ScaleLedger;
  launcher: WorkerLauncher;
  entry: string;
  heartbeatMs: number;
  logCapBytes: number;
  logPaths(jobId: number): { stdoutPath: string; stderrPath: string };
  log(line: string): void;
  /** A job changed state: claimed, finished, or given back to the queue. */
  jobChanged(job: RunningJob): void;
  /** Something a lane's status shows moved (a worker started, went idle, exited). */
  changed(): void;
}

export class Fleet implements FleetPort {
  private readonly pool: Pool;
  private readonly loop: SizerLoop;
  private readonly heartbeat: Heartbeat;
  private readonly memory = new SizerMemory();
  private stopping: Shutdown | null = null;

  constructor(private readonly d: FleetDeps) {
    this.pool = new Pool(
      d.jobs,
      {
        now: Date.now,
        workerCommand: (lane) => {
          const row = d.lanes.list().find((l) => l.name === lane);
          return row?.workerCommand ? { argv: row.workerCommand, cwd: row.workerCwd } : null;
        },
        logPaths: d.logPaths,
        jobChanged: (job) => {
          d.jobChanged(job);
          // Counts moved even when the sizer has nothing to decide: the lane's row must follow.
          d.changed();
        },
        fleetChanged: () => {
          this.heartbeat.update();
          this.loop.poke();
          d.changed();
        },
        workerLost: (w, reason, detail) => this.lost(w, reason, detail),
      },
      { entry: d.entry, launcher: d.launcher, logCapBytes: d.logCapBytes, stopTimeoutMs: 5_000 },
    );
    this.heartbeat = new Heartbeat(this.pool, d.heartbeatMs, Date.now, (w) => {
      d.log(`worker ${w.id} stopped answering; replacing it`);
      this.pool.kill(w.id, 'unresponsive');
    });
    this.loop = new SizerLoop({ observe: () => this.observe(), apply: (decision) => this.apply(decision) }, d.tickMs, Date.now);
  }

  start(): void {
    this.loop.start();
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

  cancel(jobId: number, graceMs: number): void {
    this.pool.cancel(jobId, graceMs);
  }

  laneRemoved(name: string): void {
    this.pool.stopLane(name);
    this.memory.forget(name);
  }

  /** Take no more work; let running jobs finish within `graceMs`; then end the rest. */
  async shutdown(graceMs: number): Promise<void> {
    this.loop.stop();
    this.stopping = shutdown(this.pool, this.d.jobs, graceMs, this.d.log);
    await this.stopping.done;
    this.heartbeat.stop();
  }

  hurry(graceMs: number): void {
    this.stopping?.hurry(graceMs);
  }

  private observe() {
    return observe({ now: Date.now(), tickMs: this.d.tickMs, ceiling: this.d.ceiling, lanes: this.d.lanes.list(), counts: this.d.lanes.allCounts() }, this.pool, this.memory);
  }

  private apply(decision: Parameters<typeof apply>[0]): void {
    apply(decision, Date.now(), this.pool, this.memory, this.d.ledger);
    this.heartbeat.update();
    // Every pass follows something that moved (work arrived, a worker came or went, a tick):
    // the lanes' status may show it even when the sizer had nothing to do.
    this.d.changed();
  }

  private lost(w: WorkerRecord, reason: ScaleReason, detail: string): void {
    const c = this.pool.counts().get(w.lane);
    this.d.ledger.lost(w.lane, (c?.idle ?? 0) + (c?.busy ?? 0), reason, detail);
  }
}
