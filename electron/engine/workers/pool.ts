// Mechanism: starting, stopping and talking to worker processes. It makes no sizing decisions;
// it does what the sizer's actions say and reports what it sees.
import type { JobSummary, ScaleReason } from '../../../shared/model.js';
import { EXIT_COMMAND_WONT_START, WORKER_ENV, type JobAssignment } from '../../worker/protocol.js';
import { ENGINE_VAR, endJob, killQuietly, processesOfJobs, type JobRef } from '../../worker/containment.js';
import { signalGroup } from '../../worker/process-group.js';
import { backoffMs } from '../backoff.js';
import type { WorkerCounts } from '../status/lane-status.js';
import { summaryOf, type ClaimedJob, type JobStore, type RunningRow, type Turn, type TurnResult } from '../store/jobs.js';
import type { JobQueue } from '../queues/queue.js';
import type { Queues } from '../queues/queues.js';
import { goesOnTo, Hands } from './hands.js';
import { roleOf, type PoolHooks, type PoolOptions, type WorkerRecord } from './pool-types.js';
import { checkMessage } from './messages.js';
import { isDiskFull } from '../store/disk-full.js';
import { DeferredWrites } from './deferred.js';
import { ReportBatch, type PendingReport, type TurnMessage } from './reports.js';

export { roleOf, type PersistentCommand, type PoolHooks, type PoolOptions, type WorkerRecord, type WorkerRole, type WorkerState } from './pool-types.js';

/** The job in hand a message says the worker goes on to, if it says so. */
export class Pool {
  readonly workers = new Map<string, WorkerRecord>();
  private seq = 0;
  private emptyWaiters: (() => void)[] = [];
  /** Set while shutting down: pulls are answered with no job. */
  private closed = false;
  /** Idle workers offered work whose answer is still to come. */
  private readonly offered = new Set<WorkerRecord>();
  /** Per shared queue, the last turn whose answer is still to be applied (sharedTurns). */
  private readonly sharedOrder = new Map<JobQueue, Promise<void>>();

  /** What a full disk would not let be written, and no new work meanwhile. */
  private readonly deferred: DeferredWrites;
  private readonly hands = new Hands(
    this.workers,
    (lane) => this.queues.forLane(lane).counts().get(lane)?.queued ?? 0,
    (lane) => this.queues.sharedLane(lane) !== undefined,
  );
  /** The local store, on its synchronous path: shared lanes' reports go through their own queue. */
  private readonly jobs: JobStore;
  private readonly reports = new ReportBatch<WorkerRecord>(
    (r) => this.writeReports(r),
    // Each worker that sent one is ended and its job given back; the engine goes on.
    (r, error) => r.forEach(({ worker }) => this.misbehaved(worker, `handling its message failed: ${(error as Error).message}`)),
  );

  constructor(
    private readonly queues: Queues,
    private readonly hooks: PoolHooks,
    private readonly options: PoolOptions,
  ) {
    this.jobs = queues.local.store;
    this.deferred = new DeferredWrites(hooks.log, () => {
      for (const w of this.workers.values()) if (w.state === 'idle') this.offer(w);
      hooks.fleetChanged();
    });
  }

  /** Whether the disk is full: records wait, and no worker takes new work. */
  /** Which engine its jobs belong to, as their processes carry it: another engine's are never ended here. */
  private get engineId(): string {
    return this.options.jobEnv[ENGINE_VAR] ?? '';
  }

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
        ...this.options.jobEnv,
        ...(command ? { [WORKER_ENV.command]: JSON.stringify(command.argv) } : {}),
        ...(command?.cwd ? { [WORKER_ENV.cwd]: command.cwd } : {}),
        ...(this.options.cgroupBase ? { [WORKER_ENV.cgroup]: this.options.cgroupBase } : {}),
      },
    });
    const w: WorkerRecord = { id, lane, proc, state: 'starting', job: null, held: [], pgids: new Set(), lastHeard: this.hooks.now(), persistent: command !== null };
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
    for (const w of this.workers.values()) if (w.lane === lane && w.state === 'idle') this.offer(w);
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
    if (w.state === 'idle') this.offer(w);
  }

  /**
   * Work for an idle worker, sent without its asking: as if it had pulled, which saves the round
   * trip of waking it to ask. Only an idle one: a starting worker's own first pull is on its way.
   */
  private offer(w: WorkerRecord): void {
    // A shared lane answers later, and the worker stays idle until then: a second pull meanwhile
    // would claim a second job for it, to be run as if it were the first.
    if (this.offered.has(w)) return;
    this.offered.add(w);
    this.reports.add(w, { t: 'pull' });
  }

  /** Tells the worker that runs the job, or holds it in hand, to stop or drop it; false if none does. */
  cancel(jobId: number, graceMs: number): boolean {
    for (const w of this.workers.values()) {
      if (w.job?.id === jobId || w.held.some((h) => h.id === jobId)) {
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

  kill(id: string, reason?: ScaleReason, detail?: string): void {
    const w = this.workers.get(id);
    if (!w) return;
    if (reason) w.killedFor = reason;
    if (detail) w.killedWhy = detail;
    w.proc.kill();
  }

  private onMessage(w: WorkerRecord, raw: unknown): void {
    w.lastHeard = this.hooks.now();
    const checked = checkMessage(raw);
    if (!checked.ok) return this.misbehaved(w, checked.why);
    const m = checked.message;
    if (m.t === 'spawned') w.pgids.add(m.pgid);
    else if (m.t !== 'pong') this.reports.add(w, m);
  }

  private misbehaved(w: WorkerRecord, why: string): void {
    this.hooks.log(`worker ${w.id}: ${why}; ending it`);
    w.killedFor ??= 'crash';
    w.proc.kill();
  }

  /**
   * The turn's reports, by the store of each worker's lane: the local ones in one transaction,
   * a shared lane's in one round of its own; then each worker hears what it runs next.
   */
  private writeReports(reports: PendingReport<WorkerRecord>[]): void {
    const now = this.hooks.now();
    const byQueue = new Map<JobQueue, PendingReport<WorkerRecord>[]>();
    for (const r of reports) {
      const q = this.queues.forLane(r.worker.lane);
      const group = byQueue.get(q);
      if (group) group.push(r);
      else byQueue.set(q, [r]);
    }
    for (const [q, group] of byQueue) {
      const turns = group.map(({ worker, message }) => this.turnOf(worker, message, now));
      if (q === this.queues.local) this.afterTurns(q, group, this.record(turns, now));
      else this.sharedTurns(q, group, turns, now);
    }
  }

  /**
   * A shared lane answers later; meanwhile its workers wait for their next job, as they would for
   * a slow disk (or, holding jobs in hand, go on to those). A turn's reports go to Redis at once,
   * but their answers are applied in the order the turns were sent: a worker with jobs in hand
   * can report again before the answer to its last report is back.
   */
  private sharedTurns(q: JobQueue, group: PendingReport<WorkerRecord>[], turns: Turn[], now: number): void {
    const answer = Promise.resolve(q.turns(turns, new Map(), now));
    // Its failure is handled where the answer is applied, which may be after it settles.
    answer.catch(() => {});
    const after = (this.sharedOrder.get(q) ?? Promise.resolve()).then(async () => {
      try {
        this.afterTurns(q, group, await answer);
      } catch (error) {
        // The shared store settles each report itself (Redis being away included); only a bug gets here.
        group.forEach(({ worker }) => this.misbehaved(worker, `handling its message failed: ${(error as Error).message}`));
      }
    });
    this.sharedOrder.set(q, after);
    void after.then(() => this.sharedOrder.get(q) === after && this.sharedOrder.delete(q));
  }

  private afterTurns(q: JobQueue, group: PendingReport<WorkerRecord>[], results: TurnResult[]): void {
    group.forEach(({ worker: w, message }, i) => {
      const r = results[i]!;
      if (message.t === 'pull') this.offered.delete(w);
      if (this.workers.get(w.id) === w) return this.afterTurn(w, message, r);
      for (const job of [r.finished, r.dropped]) this.announce(job);
      // Taken for a worker that died while the shared store answered: they go back unrun.
      const taken = [...(r.claimed ? [r.claimed] : []), ...r.handed].map((j) => j.id);
      if (taken.length > 0) this.handBack(q, w, taken);
    });
  }

  private handBack(q: JobQueue, w: WorkerRecord, ids: number[]): void {
    const back = q.handBack(w.id, ids);
    if (back instanceof Promise) back.then((jobs) => jobs.forEach((j) => this.announce(j)), (error: unknown) => this.hooks.log(`could not give back jobs ${ids.join(', ')}: ${(error as Error).message}`));
    else back.forEach((j) => this.announce(j));
  }

  private giveBack(q: JobQueue, job: RunningRow, how: Parameters<JobQueue['requeue']>[1]): void {
    const back = q.requeue(job, how, this.hooks.now());
    if (back instanceof Promise) back.then((j) => this.announce(j), (error: unknown) => this.hooks.log(`could not give back job ${job.id}: ${(error as Error).message}`));
    else this.announce(back);
  }

  private turnOf(w: WorkerRecord, m: TurnMessage, now: number): Turn {
    const alive = this.workers.get(w.id) === w;
    const goesOn = goesOnTo(m);
    const asks = m.t === 'pull' || (m.t === 'done' && m.pull);
    const open = alive && !this.closed && (w.state === 'starting' || w.state === 'idle' || w.state === 'busy');
    return {
      done: m.t === 'done' ? { jobId: m.jobId, worker: w.id, attempt: m.attempt, outcome: m.outcome, retryAt: now + backoffMs(m.attempt) } : null,
      // Only a job this worker was handed; a dead worker's word starts nothing.
      started: alive && goesOn && w.held.some((h) => h.id === goesOn.jobId) ? { id: goesOn.jobId, worker: w.id } : null,
      dropped: m.t === 'dropped' && w.held.some((h) => h.id === m.jobId) ? m.jobId : null,
      pull: asks && open ? { lane: w.moveTo ?? w.lane, worker: w.id, claimFirst: !goesOn, hand: this.hands.size(w) } : null,
    };
  }

  private afterTurn(w: WorkerRecord, m: TurnMessage, r: TurnResult): void {
    // A shell job's group ends with the job; a persistent command's group lives on with the worker.
    if (m.t === 'done' && !w.persistent) w.pgids.clear();
    const goesOn = goesOnTo(m);
    const gone = new Set([goesOn?.jobId, m.t === 'dropped' ? m.jobId : undefined]);
    w.held = w.held.filter((h) => !gone.has(h.id));
    const now = r.started ?? r.claimed;
    if (m.t !== 'dropped' && (m.t !== 'started' || now)) w.job = now ? { id: now.id, attempt: now.attempts, since: w.job?.id === now.id ? w.job.since : this.hooks.now() } : null;
    w.held.push(...r.handed.map((j) => ({ id: j.id, attempt: j.attempts })));
    // It asked for work with a move pending: what it got is its new lane's, and so is it now.
    if (w.moveTo !== undefined && (m.t === 'pull' || (m.t === 'done' && m.pull && !goesOn))) {
      w.lane = w.moveTo;
      w.moveTo = undefined;
    }
    // It went on to a job the store would not record as started here (cancelled meanwhile): stop it.
    if (goesOn && !r.started) w.proc.send({ t: 'cancel', jobId: goesOn.jobId, graceMs: 0 });
    const wasBusy = w.state === 'busy';
    if (w.state === 'draining') {
      if (!w.job) w.state = 'stopping';
    } else if (w.state !== 'stopping') w.state = w.job || w.held.length > 0 ? 'busy' : 'idle';
    if (r.finished) this.hands.timed(r.finished, m.t === 'done' ? m.outcome.ranMs : undefined);
    if (m.t === 'done' && m.outcome.loadMs !== undefined) this.hooks.loaded(w.lane, m.outcome.loadMs);
    // Events carry summaries: what a started job runs stays out of them.
    for (const job of [r.finished, r.dropped, r.started && summaryOf(r.started), r.claimed && summaryOf(r.claimed)]) this.announce(job);
    if (m.t === 'pull' || (m.t === 'done' && m.pull)) {
      w.proc.send({ t: 'jobs', jobs: [...(r.claimed ? [r.claimed] : []), ...r.handed].map((j) => this.assignment(j)), firstStarted: r.claimed !== null });
    }
    // A worker that stays busy moves nothing the sizer sizes on; any other transition does.
    if (!(wasBusy && w.state === 'busy')) this.hooks.fleetChanged();
  }

  /**
   * Ends what a dead worker's job left: now, and once more a moment later, since a process the
   * worker was starting as it died may not carry the job's id until it has finished starting.
   */
  private async endProcesses(job: JobRef): Promise<void> {
    await endJob(job, { engine: this.engineId, cgroupBase: this.options.cgroupBase });
    await new Promise((done) => setTimeout(done, 250));
    for (const pid of await processesOfJobs(this.engineId, (j) => j.id === job.id && j.attempt === job.attempt)) killQuietly(pid);
  }

  /**
   * A turn's messages, in one transaction. While the disk is full each report is held (written
   * on its own once there is room) and no job is handed out.
   */
  private record(turns: Turn[], now: number): TurnResult[] {
    const none = (): TurnResult[] => turns.map(() => ({ finished: null, started: null, dropped: null, claimed: null, handed: [] }));
    const holdAll = () => {
      for (const { done } of turns) if (done) this.deferred.attempt(done.jobId, () => this.announce(this.jobs.finishOne(done, this.hooks.now())));
      return none();
    };
    if (this.deferred.full) return holdAll();
    try {
      return this.jobs.recordTurns(turns, this.hands.heldByLane(), now);
    } catch (error) {
      if (!isDiskFull(error)) throw error;
      return holdAll();
    }
  }

  private announce(job: JobSummary | null): void {
    if (job) this.hooks.jobChanged(job);
  }

  private assignment(job: ClaimedJob): JobAssignment {
    return { id: job.id, attempt: job.attempts, specJson: job.specJson, timeoutMs: job.timeoutMs, ...this.hooks.logPaths(job.id) };
  }

  private onExit(w: WorkerRecord, code: number | null, signal: string | null): void {
    // What it said before it went is recorded first: a job it finished is not given back.
    this.reports.flush();
    this.workers.delete(w.id);
    const how = signal ? `killed by ${signal}` : `exited with code ${code}`;
    const now = this.hooks.now();
    // Its job's processes die with it: its groups, its cgroup, anything carrying its id.
    const q = this.queues.forLane(w.lane);
    const running = q.runningFor(w.id, w.job?.id);
    // The jobs in its hand it never went on to: free again for any worker.
    const unstarted = w.held.filter((h) => !running.some((r) => r.id === h.id)).map((h) => h.id);
    if (unstarted.length > 0) this.handBack(q, w, unstarted);
    for (const pgid of w.pgids) signalGroup(pgid, 'SIGKILL');
    for (const job of running) void this.endProcesses({ id: job.id, attempt: job.attempts });
    for (const job of running) {
      // Its outcome is waiting for room on the disk: the job did finish, it is not given back.
      if (this.deferred.holds(job.id)) continue;
      // Stopped for the machine's sake (memory critically low): the job did nothing wrong, so it runs again at once, its attempt given back.
      const machine = w.killedFor === 'machine';
      const why = machine ? `stopped during attempt ${job.attempts}: memory critically low` : `worker ${how} during attempt ${job.attempts}`;
      const giveBack = () => this.giveBack(q, job, { why, retryAt: machine ? now : now + backoffMs(job.attempts), refund: machine });
      this.deferred.attempt(job.id, giveBack);
    }
    const expected = w.state === 'stopping' || (w.state === 'draining' && w.job === null);
    if (w.leaving && (expected || w.leaving.reason === 'shutdown')) this.hooks.workerLeft(w, expected ? w.leaving : { reason: 'shutdown', detail: `the engine stopped before its job finished; ${how}` });
    const atStart = w.state === 'starting';
    if (code === EXIT_COMMAND_WONT_START) this.hooks.workerLost(w, 'crash', 'its worker command died before it could answer a job', true);
    else if (w.killedFor === 'unresponsive') this.hooks.workerLost(w, 'unresponsive', `worker stopped answering; ${how}`, atStart);
    else if (w.killedFor === 'machine') this.hooks.workerLost(w, 'machine', w.killedWhy ?? 'memory critically low', false);
    else if (w.killedFor) this.hooks.workerLost(w, w.killedFor, `worker misbehaved; ${how}`, atStart);
    else if (!expected && w.leaving?.reason !== 'shutdown') this.hooks.workerLost(w, 'crash', `worker ${how}`, atStart);
    if (this.workers.size === 0) for (const wake of this.emptyWaiters.splice(0)) wake();
    this.hooks.fleetChanged();
  }
}
