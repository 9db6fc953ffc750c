// Mechanism: starting, stopping, draining and moving worker processes, and hearing from them. It
// makes no sizing decisions; it does what the sizer's actions say and reports what it sees. What a
// turn's reports write is turns.ts; what a worker's exit leaves to settle is worker-exit.ts.
import type { ScaleReason } from '../../../shared/model.js';
import { WORKER_ENV } from '../../worker-protocol/protocol.js';
import type { WorkerCounts } from './pool-types.js';
import type { Queues } from '../queues/queues.js';
import { roleOf, type GivenCard, type Kill, type PoolHooks, type PoolOptions, type WorkerRecord } from './pool-types.js';
import type { WorkerSaid } from './messages.js';
import { DeferredWrites } from './deferred.js';
import { TurnRecorder } from './turns.js';
import { workerExited, type ExitPort } from './worker-exit.js';
import { handBackMs } from './hands.js';

export type { GivenCard } from './pool-types.js';
export { roleOf, type PersistentCommand, type PoolHooks, type PoolOptions, type WorkerRecord, type WorkerRole, type WorkerState } from './pool-types.js';

export class Pool {
  readonly workers = new Map<string, WorkerRecord>();
  private seq = 0;
  private emptyWaiters: (() => void)[] = [];
  /** Set while shutting down: pulls are answered with no job. */
  private closed = false;

  /** What a full disk would not let be written, and no new work meanwhile. */
  private readonly deferred: DeferredWrites;
  private readonly turns: TurnRecorder;
  private readonly exits: ExitPort;

  constructor(
    queues: Queues,
    private readonly hooks: PoolHooks,
    private readonly options: PoolOptions,
  ) {
    this.deferred = new DeferredWrites(hooks.log, () => {
      for (const w of this.workers.values()) if (w.state === 'idle') this.turns.offer(w);
      hooks.fleetChanged();
    });
    this.turns = new TurnRecorder({
      workers: this.workers,
      queues,
      hooks,
      deferred: this.deferred,
      closed: () => this.closed,
      misbehaved: (w, why) => this.misbehaved(w, why),
      handBelowMs: options.handBelowMs,
    });
    this.exits = { queues, hooks, deferred: this.deferred, options, hold: (lane, ids, until) => this.turns.holdHand(lane, ids, until) };
  }

  /** Whether the disk is full: records wait, and no worker takes new work. */
  get diskFull(): boolean {
    return this.deferred.full;
  }

  /** Starts a worker for the lane; `card`: the GPU it is given, the only one CUDA shows it (by uuid: CUDA's own order may differ from nvidia-smi's). */
  start(lane: string, card?: GivenCard): WorkerRecord {
    const id = `${lane}#${++this.seq}.${process.pid}`;
    const command = this.hooks.workerCommand(lane);
    const proc = this.options.launcher.launch({
      entry: this.options.entry,
      name: `lanes-worker:${lane}`,
      env: {
        [WORKER_ENV.lane]: lane,
        [WORKER_ENV.id]: id,
        [WORKER_ENV.logCapBytes]: String(this.options.logCapBytes),
        [WORKER_ENV.handBackMs]: String(handBackMs(this.options.handBelowMs)),
        ...this.options.jobEnv,
        ...(card ? { CUDA_VISIBLE_DEVICES: card.uuid } : {}),
        ...(command ? { [WORKER_ENV.command]: JSON.stringify(command.argv) } : {}),
        ...(command?.cwd ? { [WORKER_ENV.cwd]: command.cwd } : {}),
        ...(this.options.cgroupBase ? { [WORKER_ENV.cgroup]: this.options.cgroupBase } : {}),
      },
    });
    const w: WorkerRecord = { id, lane, proc, state: 'starting', job: null, hand: [], pgids: new Set(), lastHeard: this.hooks.now(), persistent: command !== null, ...(card ? { card: card.index } : {}) };
    this.workers.set(id, w);
    proc.onMessage((said) => this.onMessage(w, said));
    proc.onExit((code, signal) => this.onExit(w, code, signal));
    return w;
  }

  /** Idle workers: ask them to exit now (kill if they don't). */
  stop(ids: readonly string[]): void {
    for (const id of ids) {
      const w = this.workers.get(id);
      if (!w || w.state === 'stopping') continue;
      w.state = w.job ? 'draining' : 'stopping';
      if (!w.job) w.countedOut = true;
      w.proc.send({ t: 'drain' });
      setTimeout(() => this.workers.has(id) && w.proc.kill(), this.options.stopTimeoutMs).unref();
    }
  }

  /** Busy workers: finish the current job, then exit (`why` is written to the ledger then). */
  drain(ids: readonly string[], why?: { reason: ScaleReason; detail: string }): void {
    for (const id of ids) {
      const w = this.workers.get(id);
      if (!w || w.state === 'stopping' || w.state === 'draining') continue;
      if (why) w.leaving = why;
      w.state = w.job ? 'draining' : 'stopping';
      w.proc.send({ t: 'drain' });
    }
  }

  /**
   * Draining workers still on their job, kept after all: they pull again when it ends. One that
   * has already finished is on its way out and goes (its exit is still counted as asked for).
   */
  keep(ids: readonly string[]): void {
    if (this.closed) return;
    for (const id of ids) {
      const w = this.workers.get(id);
      if (!w || w.state !== 'draining' || !w.job) continue;
      w.state = 'busy';
      w.kept = true;
      w.proc.send({ t: 'stay' });
    }
  }

  /** Live workers per lane, as the status and the ledger count them. */
  counts(): Map<string, WorkerCounts> {
    const counts = new Map<string, WorkerCounts>();
    for (const w of this.workers.values()) {
      let c = counts.get(w.lane);
      if (!c) counts.set(w.lane, (c = { idle: 0, busy: 0, leaving: 0 }));
      c[roleOf(w.state)]++;
    }
    return counts;
  }

  /** The jobs workers run now, as `id:attempt`. */
  runningJobs(): Set<string> {
    const running = new Set<string>();
    for (const w of this.workers.values()) if (w.job) running.add(`${w.job.id}:${w.job.attempt}`);
    return running;
  }

  /** Every worker of a lane that is going away; it holds no unfinished job by then. */
  stopLane(lane: string): void {
    this.stop([...this.workers.values()].filter((w) => w.lane === lane).map((w) => w.id));
  }

  /** New work for a lane: idle workers pull. */
  wake(lane: string): void {
    for (const w of this.workers.values()) if (w.lane === lane && w.state === 'idle') this.turns.offer(w);
  }

  /** Workers of a lane: all of them alive, and those running a job. */
  laneWorkers(lane: string): { workers: number; busy: number } {
    let workers = 0;
    let busy = 0;
    for (const w of this.workers.values()) {
      if (w.lane !== lane) continue;
      workers++;
      if (w.job) busy++;
    }
    return { workers, busy };
  }

  /** A shell worker goes on to another lane: at once when idle, at the end of its job when busy. */
  move(id: string, lane: string): void {
    const w = this.workers.get(id);
    if (!w || w.state === 'draining' || w.state === 'stopping') return;
    if (w.state === 'busy') {
      w.moveTo = lane;
      return;
    }
    w.lane = lane;
    if (w.state === 'idle') this.turns.offer(w);
  }

  /** Tells the worker that runs the job, or holds it in hand, to stop or drop it; false if none does. */
  cancel(jobId: number, graceMs: number): boolean {
    for (const w of this.workers.values()) {
      if (w.job?.id === jobId || w.hand.some((h) => h.id === jobId)) {
        w.proc.send({ t: 'cancel', jobId, graceMs });
        return true;
      }
    }
    return false;
  }

  /** Stop handing out jobs; idle workers leave at once, busy ones after their job. */
  close(): void {
    this.closed = true;
    this.drain([...this.workers.keys()], { reason: 'shutdown', detail: 'the engine is stopping' });
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

  kill(id: string, why?: Kill): void {
    const w = this.workers.get(id);
    if (!w) return;
    if (why) w.killed = why;
    w.proc.kill();
  }

  private onMessage(w: WorkerRecord, said: WorkerSaid): void {
    w.lastHeard = this.hooks.now();
    if (!said.ok) return this.misbehaved(w, said.why);
    const m = said.message;
    if (m.t === 'spawned') w.pgids.add(m.pgid);
    else if (m.t === 'progress') {
      // Only the run this worker holds now: a late word from a run already recorded is no news.
      if (w.job?.id === m.jobId && w.job.attempt === m.attempt) this.hooks.progressed({ jobId: m.jobId, attempt: m.attempt, lane: w.job.lane, progress: m.progress, ignored: m.ignored });
    } else if (m.t !== 'pong') this.turns.add(w, m);
  }

  private misbehaved(w: WorkerRecord, why: string): void {
    this.hooks.log(`worker ${w.id}: ${why}; ending it`);
    w.killed ??= { reason: 'crash', detail: 'worker misbehaved' };
    w.proc.kill();
  }

  private onExit(w: WorkerRecord, code: number | null, signal: string | null): void {
    // What it said before it went is recorded first: a job it finished is not given back.
    this.turns.flush();
    this.workers.delete(w.id);
    workerExited(this.exits, w, code, signal);
    if (this.workers.size === 0) for (const wake of this.emptyWaiters.splice(0)) wake();
    this.hooks.fleetChanged();
  }
}
