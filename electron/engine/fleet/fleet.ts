// The engine's workers as mechanism: the pool that starts and talks to them, the heartbeat that
// replaces a hung one, and the sweep for jobs without a cgroup. It decides nothing about how many:
// the sizing pass (sizer/pass.ts) reads its workers as plain data and hands it actions to carry
// out. What it knows flows out as data (worker counts) and as `onChanged` signals.
import type { JobSummary, ScaleReason } from '../../../shared/model.js';
import type { LiveWorker } from '../machine/machine.js';
import { workerCgroups } from '../machine/worker-meter.js';
import { ENGINE_VAR } from '../../job-control/containment.js';
import { privateUmask } from '../../paths/private-dir.js';
import { WORKER_ENV } from '../../worker-protocol/protocol.js';
import type { Decision } from '../sizer/policy.js';
import type { WorkerView } from '../sizer/pass.js';
import type { Queues } from '../queues/queues.js';
import type { LaneRow } from '../store/lanes.js';
import type { ProgressHeard, WorkerCounts } from '../workers/pool-types.js';
import { Heartbeat } from '../workers/heartbeat.js';
import type { WorkerLauncher } from '../workers/launcher.js';
import { Pool, roleOf, type WorkerRecord } from '../workers/pool.js';
import { StartFailures } from '../workers/start-failures.js';
import { carryOut } from './apply.js';
import type { ScaleLedger } from './ledger.js';
import { shutdown, type Shutdown } from './shutdown.js';
import { EscapeeSweep } from './sweep.js';
import type { LogPaths } from '../../job-control/log-paths.js';

export interface FleetDeps {
  /** Jobs shorter than this on average get jobs in hand (workers/hands.ts). */
  handBelowMs: number;
  /** A worker told to stop that has not exited by then is killed. */
  workerStopMs: number;
  /** Where each lane's jobs are queued: the local store, or a shared queue on Redis. */
  queues: Queues;
  lanes: { list(): readonly LaneRow[] };
  ledger: ScaleLedger;
  launcher: WorkerLauncher;
  entry: string;
  heartbeatMs: number;
  logCapBytes: number;
  /** The engine's cgroup for jobs, or null where the OS offers none. */
  cgroupBase: string | null;
  /** Who this engine is where engines meet (machine-name.ts): every job is told. */
  identity: { machine: string; engineId: string };
  logPaths(jobId: number): LogPaths;
  log(line: string): void;
  /** A job changed state: claimed, finished, or given back to the queue. */
  jobChanged(job: JobSummary): void;
  /** Something a lane's status shows moved (a worker started, went idle, exited). */
  changed(): void;
  /** A worker of the lane had its command loaded after `ms` (a job waited for it). */
  loaded(lane: string, ms: number): void;
  /** The running job said how far it has got (already checked: its run, its worker). */
  progressed(report: ProgressHeard): void;
}

export class Fleet {
  private readonly pool: Pool;
  private readonly heartbeat: Heartbeat;
  private readonly startFailures = new StartFailures();
  private readonly changeListeners: (() => void)[] = [];
  private stopping: Shutdown | null = null;
  /** Only needed where jobs get no cgroup of their own (see sweep.ts). */
  private readonly sweep: EscapeeSweep | null;

  constructor(private readonly d: FleetDeps) {
    // Added to every worker's (and so every job's) environment: where it runs, which engine owns
    // it (what the sweep looks for), and the umask its files are made with.
    const jobEnv = { LANES_MACHINE: d.identity.machine, [ENGINE_VAR]: d.identity.engineId, [WORKER_ENV.umask]: privateUmask().toString(8) };
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
          if (job.state === 'succeeded') this.startFailures.succeeded(job.lane);
          if (job.state !== 'running') this.sweep?.soon();
          d.jobChanged(job);
          // Counts moved even when the sizer has nothing to decide: the lane's row must follow.
          d.changed();
        },
        fleetChanged: () => {
          this.heartbeat.update();
          this.tellSharedLanes();
          this.moved();
          d.changed();
        },
        workerLost: (w, reason, detail, atStart) => this.lost(w, reason, detail, atStart),
        loaded: (lane, ms) => d.loaded(lane, ms),
        progressed: (report) => d.progressed(report),
        workerLeft: (w, why) => {
          // Counted until it went: the others still finishing are, too.
          this.d.ledger.lost(w.lane, this.counted(w.lane), why.reason, why.detail);
        },
        log: d.log,
      },
      { entry: d.entry, launcher: d.launcher, logCapBytes: d.logCapBytes, stopTimeoutMs: d.workerStopMs, cgroupBase: d.cgroupBase, jobEnv, handBelowMs: d.handBelowMs },
    );
    this.heartbeat = new Heartbeat(this.pool, d.heartbeatMs, Date.now, (w) => {
      d.log(`worker ${w.id} stopped answering; replacing it`);
      this.pool.kill(w.id, { reason: 'unresponsive', detail: 'worker stopped answering' });
    });
    this.sweep = d.cgroupBase === null && process.platform === 'linux' ? new EscapeeSweep(() => this.pool.runningJobs(), d.log, d.identity.engineId) : null;
  }

  /** Something the sizing pass observes moved (a worker came, went idle or left; shared work arrived). */
  onChanged(listener: () => void): void {
    this.changeListeners.push(listener);
  }

  private moved(): void {
    for (const listener of this.changeListeners) listener();
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

  /** The lane's workers alive, draining ones included, less those already counted out: the one measure of the ledger's from/to (sizer/policy.ts). */
  private counted(lane: string): number {
    let n = 0;
    for (const w of this.pool.workers.values()) if (w.lane === lane && !countedOut(w)) n++;
    return n;
  }

  /** A shared lane's Redis stopped answering, or answers again: the ledger keeps when, at the lane's size then. */
  outage(lane: string, detail: string): void {
    const n = this.counted(lane);
    this.d.ledger.record(lane, n, n, 'outage', detail);
  }

  /** New work in these lanes: their idle workers pull. */
  wake(lanes: Iterable<string>): void {
    if (this.stopping) return;
    for (const lane of lanes) this.pool.wake(lane);
  }

  cancel(jobId: number, graceMs: number): boolean {
    return this.pool.cancel(jobId, graceMs);
  }

  laneRemoved(name: string): void {
    this.pool.stopLane(name);
    this.startFailures.forget(name);
  }

  /** Take no more work; let running jobs finish within `graceMs`; then end the rest. */
  async shutdown(graceMs: number): Promise<void> {
    this.sweep?.stop();
    this.stopping = shutdown(this.pool, this.d.queues, graceMs, this.d.log);
    await this.stopping.done;
    this.heartbeat.stop();
  }

  hurry(graceMs: number): void {
    this.stopping?.hurry(graceMs);
  }

  /** Jobs workers run now, and jobs in their hands (still queued), of a lane or of all. */
  jobsInWorkers(lane?: string): { running: number[]; inHand: number[] } {
    const running: number[] = [];
    const inHand: number[] = [];
    for (const w of this.pool.workers.values()) {
      if (lane !== undefined && w.lane !== lane) continue;
      if (w.job) running.push(w.job.id);
      for (const h of w.hand) inHand.push(h.id);
    }
    return { running, inHand };
  }

  /** Until when a lane holds off starting workers; null if it does not. */
  startsBlockedUntil(lane: string): number | null {
    return this.startFailures.blockedUntil(lane, Date.now());
  }

  /** The workers as the sizing pass reads them: plain data. */
  *workerViews(): Iterable<WorkerView> {
    for (const w of this.pool.workers.values()) {
      const drainedForPause = w.state === 'draining' && w.job !== null && w.leaving?.reason === 'pause';
      yield { id: w.id, lane: w.lane, role: roleOf(w.state), moveTo: w.moveTo, since: w.job?.since ?? null, hand: w.hand.length, drainedForPause, countedOut: countedOut(w) };
    }
  }

  /** The live workers, as the machine's sampler measures them. */
  liveWorkers(): LiveWorker[] {
    const live: LiveWorker[] = [];
    for (const w of this.pool.workers.values()) {
      if (w.proc.pid === undefined) continue;
      live.push({ id: w.id, pid: w.proc.pid, lane: w.lane, busy: w.job !== null, since: w.job?.since ?? null, cgroups: workerCgroups(this.d.cgroupBase, w.proc.pid, w.job), ...(w.card === undefined ? {} : { card: w.card }) });
    }
    return live;
  }

  /** A pass's actions, carried out (what the pass decided, nothing more). */
  carryOut(decision: Decision): void {
    if (this.stopping) return;
    this.d.ledger.batch(() => carryOut(decision.actions, this.pool, this.d.ledger, this.d.log));
    this.heartbeat.update();
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
    this.moved();
  }

  /**
   * Only a worker that dies before it is ready holds its lane back: one lost mid-job (killed, or
   * killed by its job) says nothing about the next one, and its job's retry waits its own backoff.
   */
  private lost(w: WorkerRecord, reason: ScaleReason, detail: string, atStart: boolean): void {
    if (reason === 'crash' && atStart) this.startFailures.failed(w.lane, Date.now());
    const until = this.startsBlockedUntil(w.lane);
    const wait = until === null ? '' : `; the next worker waits ${Math.round((until - Date.now()) / 1000)} s`;
    this.d.ledger.lost(w.lane, this.counted(w.lane), reason, detail + wait);
  }
}

/** Stopped while idle and still exiting: the stop's ledger row already counted it out. */
const countedOut = (w: WorkerRecord): boolean => w.state === 'stopping' && w.countedOut === true;
