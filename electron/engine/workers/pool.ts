// Mechanism: starting, stopping and talking to worker processes. It makes no sizing decisions;
// it does what the sizer's actions say and reports what it sees.
import type { JobSummary, ScaleReason } from '../../../shared/model.js';
import { EXIT_COMMAND_WONT_START, WORKER_ENV, type FromWorker, type JobAssignment } from '../../worker/protocol.js';
import { endJob, killQuietly, processesOfJobs, type JobRef } from '../../worker/containment.js';
import { signalGroup } from '../../worker/process-group.js';
import { backoffMs } from '../backoff.js';
import type { WorkerCounts } from '../status/lane-status.js';
import type { ClaimedJob, JobStore } from '../store/jobs.js';
import type { WorkerLauncher, WorkerProcess } from './launcher.js';
import { checkMessage } from './messages.js';
import { isDiskFull } from '../store/disk-full.js';
import { DeferredWrites } from './deferred.js';

export type WorkerState = 'starting' | 'idle' | 'busy' | 'draining' | 'stopping';

/** How the sizer counts a worker: one still starting is as good as idle; draining or stopping is leaving. */
export type WorkerRole = 'idle' | 'busy' | 'leaving';
export const roleOf = (state: WorkerState): WorkerRole =>
  state === 'busy' ? 'busy' : state === 'idle' || state === 'starting' ? 'idle' : 'leaving';

export interface PersistentCommand {
  argv: string[];
  cwd: string | null;
}

export interface WorkerRecord {
  id: string;
  lane: string;
  proc: WorkerProcess;
  state: WorkerState;
  job: { id: number; attempt: number } | null;
  /** Process groups this worker started; ended if the worker dies. */
  pgids: Set<number>;
  lastHeard: number;
  /** Runs a persistent command, whose process group lives as long as the worker does. */
  persistent: boolean;
  /** Set when the engine killed it for a reason of its own (it stopped answering). */
  killedFor?: ScaleReason;
}

export interface PoolHooks {
  now(): number;
  /** The lane's persistent command and where it runs, if it has one. */
  workerCommand(lane: string): PersistentCommand | null;
  logPaths(jobId: number): { stdoutPath: string; stderrPath: string };
  jobChanged(job: JobSummary): void;
  /** Something the sizer observes moved: a worker went idle, started, or exited. */
  fleetChanged(): void;
  /** A worker ended without being asked to; `atStart`: before it was ready to work (or its command could not start). */
  workerLost(worker: WorkerRecord, reason: ScaleReason, detail: string, atStart: boolean): void;
  log(line: string): void;
}

export interface PoolOptions {
  entry: string;
  launcher: WorkerLauncher;
  logCapBytes: number;
  /** A stopping worker that has not exited by then is killed. */
  stopTimeoutMs: number;
  /** The engine's cgroup for jobs, or null where the OS offers none (containment.ts). */
  cgroupBase: string | null;
}

export class Pool {
  readonly workers = new Map<string, WorkerRecord>();
  private seq = 0;
  private emptyWaiters: (() => void)[] = [];
  /** Set while shutting down: pulls are answered with no job. */
  private closed = false;

  /** What a full disk would not let be written, and no new work meanwhile. */
  private readonly deferred: DeferredWrites;

  constructor(
    private readonly jobs: JobStore,
    private readonly hooks: PoolHooks,
    private readonly options: PoolOptions,
  ) {
    this.deferred = new DeferredWrites(hooks.log, () => {
      for (const w of this.workers.values()) if (w.state === 'idle') w.proc.send({ t: 'wake' });
      hooks.fleetChanged();
    });
  }

  /** Whether the disk is full: records wait, and no worker takes new work. */
  get diskFull(): boolean {
    return this.deferred.full;
  }

  start(lane: string): WorkerRecord {
    const id = `${lane}#${++this.seq}.${process.pid}`;
    const command = this.hooks.workerCommand(lane);
    const proc = this.options.launcher.launch({
      entry: this.options.entry,
      name: `lanes-worker:${lane}`,
      env: {
        [WORKER_ENV.lane]: lane,
        [WORKER_ENV.id]: id,
        [WORKER_ENV.logCapBytes]: String(this.options.logCapBytes),
        ...(command ? { [WORKER_ENV.command]: JSON.stringify(command.argv) } : {}),
        ...(command?.cwd ? { [WORKER_ENV.cwd]: command.cwd } : {}),
        ...(this.options.cgroupBase ? { [WORKER_ENV.cgroup]: this.options.cgroupBase } : {}),
      },
    });
    const w: WorkerRecord = { id, lane, proc, state: 'starting', job: null, pgids: new Set(), lastHeard: this.hooks.now(), persistent: command !== null };
    this.workers.set(id, w);
    proc.onMessage((m) => this.onMessage(w, m));
    proc.onExit((code, signal) => this.onExit(w, code, signal));
    return w;
  }

  /** Idle workers: ask them to exit now (kill if they don't). */
  stop(ids: readonly string[]): void {
    for (const id of ids) {
      const w = this.workers.get(id);
      if (!w || w.state === 'stopping') continue;
      w.state = w.job ? 'draining' : 'stopping';
      w.proc.send({ t: 'drain' });
      setTimeout(() => this.workers.has(id) && w.proc.kill(), this.options.stopTimeoutMs).unref();
    }
  }

  /** Busy workers: finish the current job, then exit. */
  drain(ids: readonly string[]): void {
    for (const id of ids) {
      const w = this.workers.get(id);
      if (!w || w.state === 'stopping' || w.state === 'draining') continue;
      w.state = w.job ? 'draining' : 'stopping';
      w.proc.send({ t: 'drain' });
    }
  }

  /** Live workers per lane, as the sizer and the status count them. */
  counts(): Map<string, WorkerCounts> {
    const counts = new Map<string, WorkerCounts>();
    for (const w of this.workers.values()) {
      let c = counts.get(w.lane);
      if (!c) counts.set(w.lane, (c = { idle: 0, busy: 0, leaving: 0 }));
      c[roleOf(w.state)]++;
    }
    return counts;
  }

  /** The jobs workers hold now, as `id:attempt`. */
  runningJobs(): Set<string> {
    const held = new Set<string>();
    for (const w of this.workers.values()) if (w.job) held.add(`${w.job.id}:${w.job.attempt}`);
    return held;
  }

  /** Every worker of a lane that is going away; it holds no unfinished job by then. */
  stopLane(lane: string): void {
    this.stop([...this.workers.values()].filter((w) => w.lane === lane).map((w) => w.id));
  }

  /** New work for a lane: idle workers pull. */
  wake(lane: string): void {
    for (const w of this.workers.values()) if (w.lane === lane && w.state === 'idle') w.proc.send({ t: 'wake' });
  }

  cancel(jobId: number, graceMs: number): boolean {
    for (const w of this.workers.values()) {
      if (w.job?.id === jobId) {
        w.proc.send({ t: 'cancel', jobId, graceMs });
        return true;
      }
    }
    return false;
  }

  /** Stop handing out jobs; idle workers leave at once, busy ones after their job. */
  close(): void {
    this.closed = true;
    this.drain([...this.workers.keys()]);
  }

  /** Resolves when no worker is left, or after `timeoutMs`. */
  whenEmpty(timeoutMs: number): Promise<void> {
    if (this.workers.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      timer.unref();
      this.emptyWaiters.push(() => (clearTimeout(timer), resolve()));
    });
  }

  kill(id: string, reason?: ScaleReason): void {
    const w = this.workers.get(id);
    if (!w) return;
    if (reason) w.killedFor = reason;
    w.proc.kill();
  }

  private onMessage(w: WorkerRecord, raw: unknown): void {
    w.lastHeard = this.hooks.now();
    const checked = checkMessage(raw);
    if (!checked.ok) return this.misbehaved(w, checked.why);
    const m = checked.message;
    try {
      if (m.t === 'pull') this.answerPull(w, null);
      else if (m.t === 'done') this.answerPull(w, m);
      else if (m.t === 'spawned') w.pgids.add(m.pgid);
    } catch (error) {
      // Whatever went wrong handling this one message (a full disk, a bug) ends this worker and
      // gives its job back; the engine goes on.
      this.misbehaved(w, `handling its message failed: ${(error as Error).message}`);
    }
  }

  private misbehaved(w: WorkerRecord, why: string): void {
    this.hooks.log(`worker ${w.id}: ${why}; ending it`);
    w.killedFor ??= 'crash';
    w.proc.kill();
  }

  private answerPull(w: WorkerRecord, done: Extract<FromWorker, { t: 'done' }> | null): void {
    const wantsNext = (done === null || done.pull) && !this.closed && (w.state === 'starting' || w.state === 'idle' || w.state === 'busy');
    const now = this.hooks.now();
    const report = done && { jobId: done.jobId, worker: w.id, attempt: done.attempt, outcome: done.outcome, retryAt: now + backoffMs(done.attempt) };
    const { finished, claimed } = this.record(report, wantsNext ? { lane: w.lane, worker: w.id } : null, now);
    // A shell job's group ends with the job; a persistent command's group lives on with the worker.
    if (done && !w.persistent) w.pgids.clear();
    w.job = claimed ? { id: claimed.id, attempt: claimed.attempts } : null;
    const wasBusy = w.state === 'busy';
    if (w.state === 'draining') w.state = 'stopping';
    else if (w.state !== 'stopping') w.state = claimed ? 'busy' : 'idle';
    if (finished) this.hooks.jobChanged(finished);
    if (claimed) this.hooks.jobChanged(claimed);
    if (done === null || done.pull) w.proc.send({ t: 'job', job: claimed ? this.assignment(claimed) : null });
    // A worker that stays busy moves nothing the sizer sizes on; any other transition does.
    if (!(wasBusy && w.state === 'busy')) this.hooks.fleetChanged();
  }

  /**
   * Ends what a dead worker's job left: now, and once more a moment later, since a process the
   * worker was starting as it died may not carry the job's id until it has finished starting.
   */
  private async endProcesses(job: JobRef): Promise<void> {
    await endJob(job, { cgroupBase: this.options.cgroupBase });
    await new Promise((done) => setTimeout(done, 250));
    for (const pid of await processesOfJobs((j) => j.id === job.id && j.attempt === job.attempt)) killQuietly(pid);
  }

  /**
   * A worker's report and its next job, in one transaction. While the disk is full the report is
   * held (written on its own once there is room) and no job is handed out.
   */
  private record(report: Parameters<JobStore['finishAndClaim']>[0], next: Parameters<JobStore['finishAndClaim']>[1], now: number): ReturnType<JobStore['finishAndClaim']> {
    const hold = (r: NonNullable<typeof report>) => this.deferred.attempt(r.jobId, () => this.announce(this.jobs.finishAndClaim(r, null, this.hooks.now()).finished));
    if (this.deferred.full) {
      if (report) hold(report);
      return { finished: null, claimed: null };
    }
    try {
      return this.jobs.finishAndClaim(report, next, now);
    } catch (error) {
      if (!isDiskFull(error)) throw error;
      if (report) hold(report);
      return { finished: null, claimed: null };
    }
  }

  private announce(job: JobSummary | null): void {
    if (job) this.hooks.jobChanged(job);
  }

  private assignment(job: ClaimedJob): JobAssignment {
    return { id: job.id, attempt: job.attempts, spec: job.spec, timeoutMs: job.timeoutMs, ...this.hooks.logPaths(job.id) };
  }

  private onExit(w: WorkerRecord, code: number | null, signal: string | null): void {
    this.workers.delete(w.id);
    const how = signal ? `killed by ${signal}` : `exited with code ${code}`;
    const now = this.hooks.now();
    // Its job's processes die with it: its groups, its cgroup, anything carrying its id.
    const running = this.jobs.runningFor(w.id);
    for (const pgid of w.pgids) signalGroup(pgid, 'SIGKILL');
    for (const job of running) void this.endProcesses({ id: job.id, attempt: job.attempts });
    for (const job of running) {
      // Its outcome is waiting for room on the disk: the job did finish, it is not given back.
      if (this.deferred.holds(job.id)) continue;
      const giveBack = () => this.announce(this.jobs.requeue(job, { why: `worker ${how} during attempt ${job.attempts}`, retryAt: now + backoffMs(job.attempts) }, now, job.interrupted));
      this.deferred.attempt(job.id, giveBack);
    }
    const expected = w.state === 'stopping' || (w.state === 'draining' && w.job === null);
    const atStart = w.state === 'starting';
    if (code === EXIT_COMMAND_WONT_START) this.hooks.workerLost(w, 'crash', 'its worker command died before it could answer a job', true);
    else if (w.killedFor === 'unresponsive') this.hooks.workerLost(w, 'unresponsive', `worker stopped answering; ${how}`, atStart);
    else if (w.killedFor) this.hooks.workerLost(w, w.killedFor, `worker misbehaved; ${how}`, atStart);
    else if (!expected) this.hooks.workerLost(w, 'crash', `worker ${how}`, atStart);
    if (this.workers.size === 0) for (const wake of this.emptyWaiters.splice(0)) wake();
    this.hooks.fleetChanged();
  }
}
