// One shared lane on one engine: a BullMQ queue on Redis behind the engine's queue interface.
// Each engine that joins the lane runs one of these; BullMQ keeps them from ever handing one job
// to two of them, and gives back the jobs of an engine that dies (docs/shared-lanes.md).
import { Queue, type QueueEventsOptions } from 'bullmq';
import type { Job as BullJob } from 'bullmq';
import type { Job, JobPage, JobProgress, JobSummary, LogChunk, SharedLaneStatus } from '../../../shared/model.js';
import type { ParsedInput } from '../../../shared/requests.js';
import { LanesError } from '../../../shared/errors.js';
import type { RedisAddress } from '../../../shared/redis-url.js';
import type { SharedQueue } from '../queues/queues.js';
import { NO_JOBS, type LaneCounts } from '../store/counts.js';
import type { JobFilter } from '../store/job-queries.js';
import type { Interruption, NewJob, RunningRow, Turn, TurnResult } from '../store/jobs.js';
import type { LaneRow } from '../store/lanes.js';
import { LaneWorker } from './bull-worker.js';
import { describe, LaneConnections, redisOptions } from './connections.js';
import type { SharedLaneDeps } from './deps.js';
import { cancelMark, finishedByLanes, storedJob, summaryOf } from './job-data.js';
import { laneParts, PREFIX, type LaneParts } from './parts.js';
import { OutageLedger } from './outage.js';
import { Presence } from './presence.js';
import { LaneReads, QUEUED_STATES } from './reads.js';
import { RemoteChanges } from './remote.js';
import { Outsiders } from './outsiders.js';
import { countsOf, readCounts } from './lane-counts.js';
import { GiveBack } from './give-back.js';
import { LaneWork } from './work.js';
import { fieldsOfJob } from './job-data.js';
import { sayProgress } from './progress.js';
import { IdFloor } from './id-floor.js';

/** How often the lane's counts and the other engines' workers are read. */
const POLL_MS = 1_000;
const CLOSE_WAIT_MS = 3_000;
/** Polls between two looks for named jobs BullMQ has removed (named-ids.ts). */
const PRUNE_EVERY = 10;

export class BullLane implements SharedQueue {
  readonly kind = 'redis';
  readonly lane: string;
  readonly slot: number;
  readonly p: LaneParts;
  private readonly work: LaneWork;
  private readonly giveBack: GiveBack;
  private readonly reads: LaneReads;
  private readonly remote: RemoteChanges;
  private readonly outsiders: Outsiders;
  private readonly presence: Presence;
  private laneCounts: LaneCounts = { ...NO_JOBS };
  /** BullMQ's delayed jobs not due yet, retries and scheduled ones alike: queued, not runnable. */
  private notYetN = 0;
  private waitingSince: number | null = null;
  private readonly poller: NodeJS.Timeout;
  private polling = false;
  private polls = 0;
  private closing = false;
  private lastError = '';
  private readonly outages: OutageLedger;
  private readonly ids: IdFloor;
  /** Lock renewal and the stalled check, started once Redis first answers. */
  readonly started: Promise<void>;

  constructor(row: LaneRow, address: RedisAddress, slot: number, deps: SharedLaneDeps) {
    this.lane = row.name;
    this.slot = slot;
    const conns = new LaneConnections(address, (up) => this.reachability(up));
    const queue = new Queue(row.name, { connection: conns.requests, prefix: PREFIX });
    const worker = new LaneWorker(row.name, conns.work, deps.machine);
    // An 'error' event without a listener would throw: each is said once, in the engine's log.
    queue.on('error', (error: Error) => this.trouble(error));
    worker.on('error', (error: Error) => this.trouble(error));
    worker.on('stalled', (jobId: string) => deps.log(`lane ${row.name}: job ${jobId} stalled (its engine stopped renewing its lock); it is queued again`));
    this.p = laneParts(row, slot, queue, worker, conns, deps);
    this.work = new LaneWork(this.p);
    this.giveBack = new GiveBack(this.p);
    this.reads = new LaneReads(this.p);
    const eventsConnection = { ...redisOptions(address), maxRetriesPerRequest: null } as QueueEventsOptions['connection'];
    this.outsiders = new Outsiders(this.p);
    this.remote = new RemoteChanges(this.p, { connection: eventsConnection, prefix: PREFIX }, (bullId, value) => this.outsiders.completed(bullId, value));
    this.outages = new OutageLedger(this.p);
    this.presence = new Presence(conns.requests, this.p.key('engines'), deps.engineId, deps.machine);
    this.ids = new IdFloor(this.p);
    this.started = conns.whenReachable().then(() => (this.closing ? undefined : this.ids.raise().then(() => worker.begin())));
    this.poller = setInterval(() => void this.poll(), POLL_MS);
    this.poller.unref();
  }

  get reachable(): boolean {
    return this.p.conns.reachable;
  }

  private trouble(error: unknown): void {
    const text = describe(error);
    if (text !== this.lastError) this.p.deps.log(`lane ${this.lane}: ${text}`);
    this.lastError = text;
  }

  /**
   * Redis went away or came back. Away, the lane counts nothing waiting (counts()), so the sizer
   * gives its idle workers to lanes that wait, at once, or stops them by the usual shrink; back, it
   * grows again as work is read. Both ends go in the ledger (outage.ts).
   */
  private reachability(up: boolean): void {
    if (this.closing) return;
    this.p.deps.log(`lane ${this.lane}: ${up ? `Redis at ${this.p.conns.redacted} reachable again` : this.p.conns.awayReason()}`);
    this.outages.moved(up);
    this.p.deps.changed();
    if (up) {
      this.lastError = '';
      void this.ids.raise();
      void this.poll();
    }
    // Away: the sizer hands its idle workers on; back: they pull.
    this.p.deps.workArrived(this.lane);
  }

  status(): SharedLaneStatus {
    const c = this.p.conns;
    return { redis: c.redacted, unreachableSince: c.unreachableSince, notAnswering: c.notAnswering, error: c.error, elsewhere: this.presence.elsewhere, outsideWorker: this.outsiders.warning(Date.now()) };
  }

  workersChanged(workers: number, busy: number): void {
    this.presence.set(workers, busy);
  }

  /** The lane's counts from Redis, other engines' workers, running jobs' output so far. */
  async poll(): Promise<void> {
    if (this.closing || this.polling || !this.p.conns.reachable) return;
    this.polling = true;
    try {
      const now = Date.now();
      const raw = await readCounts(this.p, now);
      await this.outsiders.poll(now, Number(raw.active) || 0);
      if (++this.polls % PRUNE_EVERY === 0) await this.p.names.prune();
      const { counts, notYet } = countsOf(raw, this.outsiders.completions);
      const moved = JSON.stringify(counts) !== JSON.stringify(this.laneCounts) || notYet !== this.notYetN;
      this.laneCounts = counts;
      this.notYetN = notYet;
      const waiting = counts.queued - this.notYetN;
      this.waitingSince = waiting > 0 ? (this.waitingSince ?? now) : null;
      const others = await this.presence.refresh(now);
      this.giveBack.sendTails();
      if (moved || others) this.p.deps.changed();
      // A retry whose wait is over, or work queued while a wake was missed: idle workers pull.
      if (waiting > 0) this.p.deps.workArrived(this.lane);
    } catch (error) {
      this.trouble(error);
    } finally {
      this.polling = false;
    }
  }

  async enqueue(jobs: NewJob[]): Promise<JobSummary[]> {
    if (!this.p.conns.reachable) throw new LanesError('queue_unreachable', `${this.p.conns.awayReason()}; nothing was queued`);
    let added: BullJob[];
    try {
      await this.ids.ready;
      added = await this.p.queue.addBulk(jobs.map(storedJob));
    } catch (error) {
      throw new LanesError('queue_unreachable', `queueing on Redis at ${this.p.conns.redacted} failed (${describe(error)}); whether it took the jobs is not known: \`lanes jobs --lane ${this.lane}\` shows what it holds`);
    }
    this.laneCounts = { ...this.laneCounts, queued: this.laneCounts.queued + added.length };
    return added.map((job) => {
      const id = this.p.idOf(job.id);
      if (id === null) throw new LanesError('internal', `Redis numbered a job of lane ${this.lane} beyond the range Lanes gives it (${job.id})`);
      return summaryOf(id, this.lane, 'waiting', fieldsOfJob(job));
    });
  }

  async turns(turns: readonly Turn[]): Promise<TurnResult[]> {
    const results = await this.work.turns(turns);
    // Kept in step until the next read of Redis corrects them, so the sizer does not start a worker for a job just taken.
    const c = { ...this.laneCounts };
    for (const r of results) {
      const taken = (r.claimed ? 1 : 0) + r.handed.length;
      c.queued -= taken;
      c.running += taken;
      for (const done of [r.finished, r.dropped]) {
        if (!done) continue;
        c.running--;
        if (done.state === 'queued') c.queued++;
        else if (done.state !== 'running') c[done.state]++;
      }
    }
    this.laneCounts = { queued: Math.max(0, c.queued), running: Math.max(0, c.running), succeeded: c.succeeded, failed: c.failed, cancelled: c.cancelled };
    return results;
  }

  /** A job this engine runs said how far it has got: BullMQ's progress (progress.ts). */
  progress(id: number, progress: JobProgress): void {
    sayProgress(this.p, id, progress);
  }

  runningFor(worker: string): RunningRow[] {
    return this.giveBack.runningFor(worker);
  }

  requeue(job: RunningRow, how: Interruption): Promise<JobSummary | null> {
    return this.giveBack.requeue(job, how);
  }

  handBack(worker: string, ids: readonly number[]): Promise<JobSummary[]> {
    return this.giveBack.handBack(worker, ids);
  }

  /**
   * As BullMQ counts them, but with the jobs in this engine's workers' hands as queued, as a
   * local lane counts them: BullMQ has them active, yet no worker runs them yet.
   */
  counts(): ReadonlyMap<string, LaneCounts> {
    // Away, nothing waits that this engine could take: no worker is kept or started for it.
    if (!this.reachable) return new Map([[this.lane, { ...this.laneCounts, queued: 0 }]]);
    let inHand = 0;
    for (const h of this.p.taken.values()) if (h.startedAt === null) inHand++;
    if (inHand === 0) return new Map([[this.lane, this.laneCounts]]);
    const c = this.laneCounts;
    const moved = Math.min(inHand, c.running);
    return new Map([[this.lane, { ...c, queued: c.queued + moved, running: c.running - moved }]]);
  }

  notYet(now: number): ReadonlyMap<string, { n: number; next: number }> {
    return this.notYetN > 0 && this.reachable ? new Map([[this.lane, { n: this.notYetN, next: now + POLL_MS }]]) : new Map();
  }

  /** Since when this engine has seen work waiting (the queue's own order is BullMQ's). */
  oldestQueuedAt(): number | undefined {
    return this.reachable ? (this.waitingSince ?? undefined) : undefined;
  }

  private guard<T>(read: () => Promise<T>): Promise<T> {
    if (!this.p.conns.reachable) return Promise.reject(new LanesError('queue_unreachable', this.p.conns.awayReason()));
    return read().catch((error: unknown) => {
      throw error instanceof LanesError ? error : new LanesError('queue_unreachable', `reading Redis at ${this.p.conns.redacted} failed: ${describe(error)}`);
    });
  }

  get(id: number): Promise<Job | undefined> {
    return this.guard(() => this.reads.get(id));
  }

  summary(id: number): Promise<JobSummary | undefined> {
    return this.guard(() => this.reads.summary(id));
  }

  page(filter: JobFilter): Promise<Omit<JobPage, 'seq'>> {
    return this.guard(() => this.reads.page(filter, this.laneCounts));
  }

  log(id: number, input: ParsedInput<'logTail'>): Promise<LogChunk> {
    return this.guard(() => this.reads.log(id, input));
  }

  /** Marked, not removed: whichever engine takes it next sets it aside unrun, as cancelled (the mark reaches them all). */
  cancelQueued(id: number, now: number): Promise<JobSummary | null> {
    return this.guard(async () => {
      const bullId = await this.p.names.bullIdFor(id);
      if (!QUEUED_STATES.has(await this.p.queue.getJobState(bullId))) return null;
      await this.p.queue.updateJobProgress(bullId, { cancel: now });
      // Taken meanwhile: the engine that runs it hears the mark and stops it.
      return (await this.reads.summary(id)) ?? null;
    });
  }

  cancelElsewhere(id: number): Promise<boolean> {
    return this.guard(async () => {
      await this.p.queue.updateJobProgress(await this.p.names.bullIdFor(id), { cancel: Date.now() });
      return true;
    });
  }

  retry(id: number): Promise<JobSummary | null> {
    return this.guard(async () => {
      const bullId = await this.p.names.bullIdFor(id);
      const state = await this.p.queue.getJobState(bullId);
      const job = await this.p.queue.getJob(bullId);
      if (!job) return null;
      if (state === 'failed') {
        await this.p.queue.updateJobProgress(bullId, 0);
        await job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
      } else if (state === 'completed' && !finishedByLanes(job.returnvalue)) {
        // Finished outside Lanes (shown failed): run by a Lanes engine this time.
        await job.retry('completed', { resetAttemptsMade: true, resetAttemptsStarted: true });
        await this.outsiders.retried(bullId);
      } else if (QUEUED_STATES.has(state) && cancelMark(job.progress) !== null) {
        await this.p.queue.updateJobProgress(bullId, 0);
      } else return null;
      return (await this.reads.summary(id)) ?? null;
    });
  }

  async close(): Promise<void> {
    this.closing = true;
    clearInterval(this.poller);
    const all = Promise.all([this.giveBack.settled(), this.work.away.settled()]).then(() => Promise.allSettled([this.presence.leave(), this.remote.close(), this.p.worker.close(true), this.p.queue.close()]));
    // Redis may be away: closing must not wait for it.
    await Promise.race([all, new Promise((done) => setTimeout(done, CLOSE_WAIT_MS).unref())]);
    this.p.conns.disconnect();
  }
}
