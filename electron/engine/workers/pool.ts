// Mechanism: starting, stopping and talking to worker processes. It makes no sizing decisions;
// it does what the sizer's actions say and reports what it sees.
import type { ScaleReason } from '../../../shared/model.js';
import { WORKER_ENV, type FromWorker, type JobAssignment } from '../../worker/protocol.js';
import type { WorkerCounts } from '../status/lane-status.js';
import type { JobStore, RunningJob } from '../store/jobs.js';
import { signalGroup } from '../../worker/process-group.js';
import type { WorkerLauncher, WorkerProcess } from './launcher.js';

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
  jobChanged(job: RunningJob): void;
  /** Something the sizer observes moved: a worker went idle, started, or exited. */
  fleetChanged(): void;
  /** A worker ended without being asked to. */
  workerLost(worker: WorkerRecord, reason: ScaleReason, detail: string): void;
}

export interface PoolOptions {
  entry: string;
  launcher: WorkerLauncher;
  logCapBytes: number;
  /** A stopping worker that has not exited by then is killed. */
  stopTimeoutMs: number;
}

export class Pool {
  readonly workers = new Map<string, WorkerRecord>();
  private seq = 0;
  private emptyWaiters: (() => void)[] = [];
  /** Set while shutting down: pulls are answered with no job. */
  private closed = false;

  constructor(
    private readonly jobs: JobStore,
    private readonly hooks: PoolHooks,
    private readonly options: PoolOptions,
  ) {}

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

  private onMessage(w: WorkerRecord, m: FromWorker): void {
    w.lastHeard = this.hooks.now();
    switch (m.t) {
      case 'pull':
        return this.answerPull(w, null);
      case 'done':
        return this.answerPull(w, m);
      case 'spawned':
        w.pgids.add(m.pgid);
        this.jobs.setPgid(m.jobId, m.pgid);
        return;
      case 'pong':
        return;
    }
  }

  private answerPull(w: WorkerRecord, done: Extract<FromWorker, { t: 'done' }> | null): void {
    const wantsNext = (done === null || done.pull) && !this.closed && (w.state === 'starting' || w.state === 'idle' || w.state === 'busy');
    const { finished, claimed } = this.jobs.finishAndClaim(
      done && { jobId: done.jobId, worker: w.id, attempt: done.attempt, outcome: done.outcome },
      wantsNext ? { lane: w.lane, worker: w.id } : null,
      this.hooks.now(),
    );
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

  private assignment(job: RunningJob): JobAssignment {
    return { id: job.id, attempt: job.attempts, spec: job.spec, ...this.hooks.logPaths(job.id) };
  }

  private onExit(w: WorkerRecord, code: number | null, signal: string | null): void {
    this.workers.delete(w.id);
    // Its job's processes die with it, even the ones in their own process group.
    for (const pgid of w.pgids) signalGroup(pgid, 'SIGKILL');
    const how = signal ? `killed by ${signal}` : `exited with code ${code}`;
    for (const job of this.jobs.runningFor(w.id)) {
      for (const pgid of job.pgid ? [job.pgid] : []) signalGroup(pgid, 'SIGKILL');
      const back = this.jobs.requeue(job, `worker ${how} during attempt ${job.attempts}`, this.hooks.now());
      if (back) this.hooks.jobChanged(back);
    }
    const expected = w.state === 'stopping' || (w.state === 'draining' && w.job === null);
    if (w.killedFor) this.hooks.workerLost(w, w.killedFor, `worker stopped answering; ${how}`);
    else if (!expected) this.hooks.workerLost(w, 'crash', `worker ${how}`);
    if (this.workers.size === 0) for (const wake of this.emptyWaiters.splice(0)) wake();
    this.hooks.fleetChanged();
  }
}
