// Each event-loop turn's reports from workers, recorded and answered: what they say is written to
// their lane's store (the local one in one transaction, a shared lane's in one round of its own),
// then each worker's record is brought up to date and it hears what it runs next. Apart from the
// pool because this is where the store's answer and the worker's word have to agree.
import type { JobSummary } from '../../../shared/model.js';
import type { JobAssignment } from '../../worker-protocol/protocol.js';
import { backoffMs } from '../backoff.js';
import { summaryOf, type ClaimedJob, type JobStore, type Turn, type TurnResult } from '../store/jobs.js';
import { isDiskFull } from '../store/disk-full.js';
import type { JobQueue } from '../queues/queue.js';
import type { Queues } from '../queues/queues.js';
import type { DeferredWrites } from './deferred.js';
import { goesOnTo, Hands } from './hands.js';
import type { PoolHooks, WorkerRecord } from './pool-types.js';
import { ReportBatch, type PendingReport, type TurnMessage } from './reports.js';
import { handBack } from './worker-exit.js';

/** What recording turns needs of the pool: not the pool itself. */
export interface TurnPort {
  /** The pool's live workers; one no longer here has exited. */
  workers: ReadonlyMap<string, WorkerRecord>;
  queues: Queues;
  hooks: Pick<PoolHooks, 'now' | 'log' | 'jobChanged' | 'loaded' | 'fleetChanged' | 'logPaths'>;
  /** What a full disk would not let be written, and no new work meanwhile. */
  deferred: DeferredWrites;
  /** Set while shutting down: pulls are answered with no job. */
  closed(): boolean;
  /** Ends a worker whose report could not be handled; its job is given back as at any exit. */
  misbehaved(w: WorkerRecord, why: string): void;
  /** Jobs shorter than this on average get jobs in hand (hands.ts). */
  handBelowMs: number;
}

export class TurnRecorder {
  /** Idle workers offered work whose answer is still to come. */
  private readonly offered = new Set<WorkerRecord>();
  /** Per shared queue, the last turn whose answer is still to be applied (sharedTurns). */
  private readonly sharedOrder = new Map<JobQueue, Promise<void>>();
  private readonly hands: Hands;
  /** The local store, on its synchronous path: shared lanes' reports go through their own queue. */
  private readonly jobs: JobStore;
  private readonly reports = new ReportBatch<WorkerRecord>(
    (r) => this.writeReports(r),
    // Each worker that sent one is ended and its job given back; the engine goes on.
    (r, error) => r.forEach(({ worker }) => this.port.misbehaved(worker, `handling its message failed: ${(error as Error).message}`)),
  );

  constructor(private readonly port: TurnPort) {
    const { queues } = port;
    this.hands = new Hands(
      port.workers,
      (lane) => queues.forLane(lane).counts().get(lane)?.queued ?? 0,
      (lane) => queues.sharedLane(lane) !== undefined,
      port.handBelowMs,
    );
    this.jobs = queues.local.store;
  }

  /** A worker's report, written at the end of this turn with the others. */
  add(w: WorkerRecord, m: TurnMessage): void {
    this.reports.add(w, m);
  }

  /** Writes this turn's reports now: a worker's exit is handled only after what it said before it. */
  flush(): void {
    this.reports.flush();
  }

  /**
   * Work for an idle worker, sent without its asking: as if it had pulled, which saves the round
   * trip of waking it to ask. Only an idle one: a starting worker's own first pull is on its way.
   */
  offer(w: WorkerRecord): void {
    // A shared lane answers later, and the worker stays idle until then: a second pull meanwhile
    // would claim a second job for it, to be run as if it were the first.
    if (this.offered.has(w)) return;
    this.offered.add(w);
    this.reports.add(w, { t: 'pull' });
  }

  /**
   * The turn's reports, by the store of each worker's lane: the local ones in one transaction,
   * a shared lane's in one round of its own; then each worker hears what it runs next.
   */
  private writeReports(reports: PendingReport<WorkerRecord>[]): void {
    const now = this.port.hooks.now();
    const byQueue = new Map<JobQueue, PendingReport<WorkerRecord>[]>();
    for (const r of reports) {
      const q = this.port.queues.forLane(r.worker.lane);
      const group = byQueue.get(q);
      if (group) group.push(r);
      else byQueue.set(q, [r]);
    }
    for (const [q, group] of byQueue) {
      const turns = group.map(({ worker, message }) => this.turnOf(worker, message, now));
      if (q === this.port.queues.local) this.afterTurns(q, group, this.record(turns, now));
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
        group.forEach(({ worker }) => this.port.misbehaved(worker, `handling its message failed: ${(error as Error).message}`));
      }
    });
    this.sharedOrder.set(q, after);
    void after.then(() => this.sharedOrder.get(q) === after && this.sharedOrder.delete(q));
  }

  private afterTurns(q: JobQueue, group: PendingReport<WorkerRecord>[], results: TurnResult[]): void {
    group.forEach(({ worker: w, message }, i) => {
      const r = results[i]!;
      if (message.t === 'pull') this.offered.delete(w);
      if (this.port.workers.get(w.id) === w) return this.afterTurn(w, message, r);
      for (const job of [r.finished, r.dropped]) this.announce(job);
      // Taken for a worker that died while the shared store answered: they go back unrun.
      const taken = [...(r.claimed ? [r.claimed] : []), ...r.handed].map((j) => j.id);
      if (taken.length > 0) handBack(this.port.hooks, q, w, taken);
    });
  }

  private turnOf(w: WorkerRecord, m: TurnMessage, now: number): Turn {
    const alive = this.port.workers.get(w.id) === w;
    const goesOn = goesOnTo(m);
    const asks = m.t === 'pull' || (m.t === 'done' && m.pull);
    const open = alive && !this.port.closed() && (w.state === 'starting' || w.state === 'idle' || w.state === 'busy');
    // Counted before its ask is answered: a lane's first job already tells whether the next few
    // may go in hand.
    if (alive && m.t === 'done' && m.outcome.ranMs !== undefined) this.hands.ran(w.job?.id === m.jobId ? w.job.lane : w.lane, m.outcome.ranMs);
    // What it gives back is free again before its ask is answered (a dead one's hand goes back as it exits).
    if (alive && m.t === 'done' && m.returned) this.giveBack(w, m.returned);
    return {
      done: m.t === 'done' ? { jobId: m.jobId, worker: w.id, attempt: m.attempt, outcome: m.outcome, retryAt: now + backoffMs(m.attempt) } : null,
      // Only a job this worker was handed; a dead worker's word starts nothing.
      started: alive && goesOn && w.hand.some((h) => h.id === goesOn.jobId) ? { id: goesOn.jobId, worker: w.id } : null,
      dropped: m.t === 'dropped' && w.hand.some((h) => h.id === m.jobId) ? m.jobId : null,
      pull: asks && open ? { lane: w.moveTo ?? w.lane, worker: w.id, claimFirst: !goesOn, hand: this.hands.size(w, goesOn !== undefined) } : null,
    };
  }

  /** A dead worker's hand, held back from claims until `until` settles (worker-exit.ts). */
  holdHand(lane: string, ids: readonly number[], until: Promise<unknown>): void {
    this.hands.hold(lane, ids, until);
  }

  /** Jobs in its hand the worker will not run: queued still, for any worker to take. */
  private giveBack(w: WorkerRecord, ids: readonly number[]): void {
    const back = w.hand.filter((h) => ids.includes(h.id)).map((h) => h.id);
    if (back.length === 0) return;
    w.hand = w.hand.filter((h) => !back.includes(h.id));
    handBack(this.port.hooks, this.port.queues.forLane(w.lane), w, back);
    // They wait again: another worker may take them, or the lane may grow for them.
    this.port.hooks.fleetChanged();
  }

  private afterTurn(w: WorkerRecord, m: TurnMessage, r: TurnResult): void {
    const { hooks } = this.port;
    // A shell job's group ends with the job; a persistent command's group lives on with the worker.
    if (m.t === 'done' && !w.persistent) w.pgids.clear();
    const goesOn = goesOnTo(m);
    const gone = new Set([goesOn?.jobId, m.t === 'dropped' ? m.jobId : undefined]);
    w.hand = w.hand.filter((h) => !gone.has(h.id));
    const now = r.started ?? r.claimed;
    if (m.t !== 'dropped' && (m.t !== 'started' || now)) w.job = now ? { id: now.id, attempt: now.attempts, since: w.job?.id === now.id ? w.job.since : hooks.now(), lane: now.lane } : null;
    w.hand.push(...r.handed.map((j) => ({ id: j.id, attempt: j.attempts })));
    const asked = m.t === 'pull' || (m.t === 'done' && m.pull);
    // It asked for work with a move pending: what it got is its new lane's, and so is it now;
    // asking ahead, once it holds the new lane's first job (its last one here still running).
    if (w.moveTo !== undefined && asked && (!goesOn || r.handed.length > 0)) {
      w.lane = w.moveTo;
      w.moveTo = undefined;
    }
    // It went on to a job the store would not record as started here (cancelled meanwhile): stop it.
    if (goesOn && !r.started) w.proc.send({ t: 'cancel', jobId: goesOn.jobId, graceMs: 0 });
    const wasBusy = w.state === 'busy';
    if (w.state === 'draining') {
      if (!w.job) w.state = 'stopping';
    } else if (w.state !== 'stopping') w.state = w.job || w.hand.length > 0 ? 'busy' : 'idle';
    // Promised to another lane while busy, it ended its job without asking for more (its last ask,
    // answered with nothing, was still on its way to it): it goes over now, as an idle one would.
    if (w.state === 'idle' && w.moveTo !== undefined) {
      w.lane = w.moveTo;
      w.moveTo = undefined;
      this.offer(w);
    }
    if (r.finished && (m.t !== 'done' || m.outcome.ranMs === undefined)) this.hands.timed(r.finished);
    if (m.t === 'done' && m.outcome.loadMs !== undefined) hooks.loaded(w.lane, m.outcome.loadMs);
    // Events carry summaries: what a started job runs stays out of them.
    for (const job of [r.finished, r.dropped, r.started && summaryOf(r.started), r.claimed && summaryOf(r.claimed), ...r.rejected]) this.announce(job);
    if (asked) {
      w.proc.send({ t: 'jobs', jobs: [...(r.claimed ? [r.claimed] : []), ...r.handed].map((j) => this.assignment(j)), firstStarted: r.claimed !== null });
    }
    // A worker that stays busy moves nothing the sizer sizes on, unless its ask left its lane with
    // nothing untaken (it took the last jobs, or there were none): then it may be promised to a
    // lane that waits, to go on to once it has run what it holds. (A shared lane's counts here
    // are as last read: there, only an ask that brought nothing says so.)
    const gotNothing = asked && !r.claimed && r.handed.length === 0;
    const dry = asked && (this.hands.tookLast(w.lane) || (gotNothing && this.port.queues.sharedLane(w.lane) !== undefined));
    if (!(wasBusy && w.state === 'busy') || dry) hooks.fleetChanged();
  }

  /**
   * A turn's messages, in one transaction. While the disk is full each report is held (written
   * on its own once there is room) and no job is handed out.
   */
  private record(turns: Turn[], now: number): TurnResult[] {
    const { deferred, hooks } = this.port;
    const none = (): TurnResult[] => turns.map(() => ({ finished: null, started: null, dropped: null, claimed: null, handed: [], rejected: [] }));
    const deferAll = () => {
      for (const { done } of turns) if (done) deferred.attempt(done.jobId, () => this.announce(this.jobs.finishOne(done, hooks.now())));
      return none();
    };
    if (deferred.full) return deferAll();
    try {
      return this.jobs.recordTurns(turns, this.hands.inHandByLane(), now);
    } catch (error) {
      if (!isDiskFull(error)) throw error;
      return deferAll();
    }
  }

  private announce(job: JobSummary | null): void {
    if (job) this.port.hooks.jobChanged(job);
  }

  private assignment(job: ClaimedJob): JobAssignment {
    return { id: job.id, attempt: job.attempts, specJson: job.specJson, timeoutMs: job.timeoutMs, ...this.port.hooks.logPaths(job.id) };
  }
}
