// Taking and finishing a shared lane's jobs for this engine's workers. A worker's report is one
// step: finish its job (BullMQ records the outcome, retries with Lanes' backoff or fails it for
// good) and, in the same call, take the next job. A job that must not run here (cancelled, not
// a Lanes job, a directory this machine lacks) is failed with the reason and the next one taken.
//
// Jobs in hand (workers/hands.ts) work as for a local lane, except that a shared job in a hand is
// taken from BullMQ when it is handed (locked to this engine, so no other engine takes it), not
// when the worker goes on to it. Each finish brings the next job back in the same call, so a
// worker that holds one goes from job to job while the engine talks to Redis. A job dropped from
// a hand (cancelled) is set aside unrun; the hand of a worker that goes away is given back
// (give-back.ts).
//
// No call here waits for a Redis that has gone away (closed, or not answering): the worker is
// answered at once with nothing to run, so it is idle and the sizer can hand its room to another
// lane. What the call was doing goes on by itself: a finished job's outcome is recorded when
// Redis answers (its lock still renewed meanwhile), and a job that comes back too late for the
// worker that asked is given back unrun.
import { UnrecoverableError, type Job } from 'bullmq';
import type { AttemptRecord, JobSummary } from '../../../shared/model.js';
import type { ClaimedJob, Report, Turn, TurnResult } from '../store/jobs.js';
import { describe } from './connections.js';
import { afterFailure, attemptError, cancelMark, checkClaimed, fieldsOfJob, returnValue, summaryOf, type BullState } from './job-data.js';
import { removeFiles, tailRow } from './logs.js';
import { AWAY, AwayCalls } from './away.js';
import { untake } from './give-back.js';
import { LANES_TOKEN } from './outsiders.js';
import { letGo, type TakenJob, type LaneParts } from './parts.js';

/** Jobs refused in a row before a worker is answered with none: a queue full of bad jobs must not hold a turn. */
const REFUSALS_MAX = 20;
/** Tries to record one outcome while its lock is still this engine's. */
const RECORD_TRIES = 5;

type Taken = { job: Job; token: string };
/** What a finish answered: BullMQ's result (the next job, when one was fetched), or the next job it could not read. */
type Finished = { res: unknown; unreadable?: Job; state?: BullState };
type Recorded = Finished & { finished: JobSummary | null };

export class LaneWork {
  private seq = 0;
  /** Calls that do not wait for a Redis that went away; the lane waits for what they left under way before it closes. */
  readonly away: AwayCalls;

  constructor(private readonly p: LaneParts) {
    this.away = new AwayCalls(p.conns);
  }

  /** A job that came back for a worker no longer waiting for it: back to wait, unrun. */
  private async giveBackLate(answer: Finished, token: string): Promise<void> {
    const next = answer.unreadable ?? (await this.p.worker.fetched(answer.res, token));
    if (next) await untake(this.p, next, token);
  }

  /**
   * A finish that also took the next job, and BullMQ could not read that job's record (not JSON
   * where it reads it before the data): the finish went through, and the next job is this
   * engine's, locked with `token`. Its answer is then that job, to be failed once as unreadable,
   * and where the finished one went, read back (BullMQ stopped before it said).
   */
  private async orUnreadableNext(job: Job, call: Promise<unknown>, token: string, fetching: boolean): Promise<Finished> {
    try {
      return { res: await call };
    } catch (error) {
      if (!fetching || !(error instanceof SyntaxError)) throw error;
      const unreadable = await this.p.worker.takenUnreadable(this.p.conns.work, token, describe(error));
      const state = (await this.p.queue.getJobState(job.id!)) as BullState;
      if (state === 'completed' || state === 'failed') job.finishedOn ??= Date.now();
      return { res: undefined, state, ...(unreadable ? { unreadable } : {}) };
    }
  }

  turns(turns: readonly Turn[]): Promise<TurnResult[]> {
    return Promise.all(turns.map((t) => this.turn(t)));
  }

  private async turn(t: Turn): Promise<TurnResult> {
    const r: TurnResult = { finished: null, started: null, dropped: null, claimed: null, handed: [], rejected: [] };
    const pull = t.pull;
    const wanted = pull === null ? 0 : (pull.claimFirst ? 1 : 0) + pull.hand;
    // Before any wait: what this turn settles is no longer this engine's to give back meanwhile.
    if (t.started) r.started = this.start(t.started.id, t.started.worker);
    const dropped = t.dropped === null ? undefined : this.release(t.dropped);
    let next: Taken | undefined;
    let asked = false;
    if (t.done) ({ finished: r.finished, next, asked } = await this.finish(t.done, wanted > 0));
    if (dropped) r.dropped = await this.drop(dropped);
    // Asked and nothing came back: nothing waits, so there is no use asking again.
    if (wanted === 0 || (asked && !next)) return r;
    const first = await this.claim(next, pull!.worker, !pull!.claimFirst);
    if (first === null) return r;
    // The rest of a hand: one call each, sent together.
    const more = wanted > 1 ? await Promise.all(Array.from({ length: wanted - 1 }, () => this.claim(undefined, pull!.worker, true))) : [];
    const jobs = [first, ...more.filter((j): j is ClaimedJob => j !== null)];
    if (pull!.claimFirst) r.claimed = jobs.shift()!;
    r.handed = jobs;
    return r;
  }

  /** The worker went on to a job in its hand: it runs now. Null when it is not (any more) held for that worker. */
  private start(id: number, worker: string): ClaimedJob | null {
    const h = this.p.taken.get(id);
    if (!h || h.worker !== worker) return null;
    h.startedAt ??= Date.now();
    return h.claimed;
  }

  /** A job dropped from a hand (cancelled there): let go of now, and set aside as cancelled by `drop`. */
  private release(id: number): TakenJob | undefined {
    const h = this.p.taken.get(id);
    if (!h || h.startedAt !== null) return undefined;
    letGo(this.p, h);
    return h;
  }

  private async drop(h: TakenJob): Promise<JobSummary | null> {
    await this.refuse(h.job, h.token, 'cancelled before it ran', true, false, false);
    return summaryOf(h.id, this.p.lane.name, afterFailure(h.job), fieldsOfJob(h.job));
  }

  /** A job for `worker`: `first` if it may run here, else the next that may; null when none waits (or Redis is away). */
  private async claim(first: Taken | undefined, worker: string, inHand: boolean): Promise<ClaimedJob | null> {
    let candidate = first ?? (await this.take());
    for (let i = 0; candidate && i < REFUSALS_MAX; i++) {
      const { job, token } = candidate;
      const id = await this.idOf(job, token);
      if (id === undefined) return null;
      const cancelledAt = cancelMark(job.progress);
      const checked = id === null ? { problem: 'its BullMQ id is not one Lanes can number (empty, or longer than 500 characters)', retry: false } : checkClaimed(job.data, this.p.lane.workerCommand !== null, this.p.deps.machine);
      if (id !== null && cancelledAt === null && !('problem' in checked)) return this.assign(job, token, worker, id, checked, inHand);
      const why = cancelledAt !== null ? 'cancelled before it ran' : 'problem' in checked ? `not run: ${checked.problem}` : '';
      candidate = await this.refuse(job, token, why, cancelledAt !== null, 'problem' in checked && checked.retry, true);
    }
    return null;
  }

  /**
   * Lanes' id of a job just taken (a named one's is read, or given, in Redis); undefined when that
   * could not be asked (Redis went away): the job is given back unrun.
   */
  private async idOf(job: Job, token: string): Promise<number | null | undefined> {
    try {
      return await this.p.names.idFor(job.id);
    } catch (error) {
      this.p.deps.log(`lane ${this.p.lane.name}: job ${job.id} is given back: its Lanes id could not be read (${describe(error)})`);
      await untake(this.p, job, token);
      return undefined;
    }
  }

  private async take(): Promise<Taken | undefined> {
    if (!this.p.conns.reachable) return undefined;
    // Lanes' own mark on the lock: a job locked under another token is held by a worker that is not Lanes (outsiders.ts).
    const token = `${LANES_TOKEN}${this.p.worker.id}:${++this.seq}`;
    try {
      const job = await this.away.unlessAway(this.p.worker.getNextJob(token, { block: false }), async (late) => void (late && (await untake(this.p, late, token))));
      return job && job !== AWAY ? { job, token } : undefined;
    } catch (error) {
      // Taken, and its record not JSON where BullMQ reads it: failed with the reason (claim), not left to stall.
      const unreadable = error instanceof SyntaxError ? await this.p.worker.takenUnreadable(this.p.conns.work, token, describe(error)).catch(() => undefined) : undefined;
      if (unreadable) return { job: unreadable, token };
      this.p.deps.log(`lane ${this.p.lane.name}: could not take a job: ${describe(error)}`);
      return undefined;
    }
  }

  private assign(job: Job, token: string, worker: string, id: number, checked: { spec: object; timeoutMs: number | null }, inHand: boolean): ClaimedJob {
    const summary = summaryOf(id, this.p.lane.name, 'active', { ...fieldsOfJob(job), processedBy: job.processedBy ?? this.p.deps.machine });
    const claimed = { ...summary, specJson: JSON.stringify(checked.spec), timeoutMs: checked.timeoutMs };
    this.p.taken.set(id, { id, job, token, worker, attempt: job.attemptsStarted, claimed, startedAt: inHand ? null : Date.now(), sentSize: 0 });
    this.p.worker.keepLocked(job, token);
    return claimed;
  }

  /** A taken job that must not run here: failed with the reason (cancelled ones as cancelled); with `fetch`, the next one comes back in the same call. */
  private async refuse(job: Job, token: string, why: string, cancelled: boolean, retry: boolean, fetch: boolean): Promise<Taken | undefined> {
    const record: AttemptRecord = { attempt: job.attemptsStarted, startedAt: null, finishedAt: Date.now(), outcome: cancelled ? 'cancelled' : 'failed', exitCode: null, error: why };
    try {
      const error = retry ? new Error(why) : new UnrecoverableError(why);
      const fetching = fetch && this.p.conns.reachable;
      const failing = this.orUnreadableNext(job, job.moveToFailed(attemptError(record, error), token, fetching), token, fetching).then(async (answer) => {
        if (cancelled) await this.p.conns.work.hincrby(this.p.key('meta'), 'cancelled', 1);
        this.announce(job, answer.state ?? afterFailure(job));
        return answer;
      });
      const answer = await this.away.unlessAway(failing, (late) => this.giveBackLate(late, token));
      if (answer === AWAY) return undefined;
      const next = answer.unreadable ?? (fetch ? await this.p.worker.fetched(answer.res, token) : undefined);
      return next ? { job: next, token } : undefined;
    } catch (error) {
      this.p.deps.log(`lane ${this.p.lane.name}: could not set aside job ${job.id}: ${describe(error)}`);
      return undefined;
    }
  }

  /**
   * Records a worker's outcome; with `fetch`, BullMQ hands back the next job in the same call.
   * Redis away: the worker hears at once that nothing was recorded yet, and the outcome is
   * recorded (and announced) when Redis answers.
   */
  private async finish(done: Report, fetch: boolean): Promise<{ finished: JobSummary | null; next?: Taken; asked: boolean }> {
    const h = this.p.taken.get(done.jobId);
    if (!h || h.worker !== done.worker || h.attempt !== done.attempt || h.startedAt === null) return { finished: null, asked: false };
    // No longer running here; its lock is renewed until its outcome is recorded.
    this.p.taken.delete(h.id);
    const asked = fetch && this.p.conns.reachable;
    const answer = await this.away.unlessAway(this.record(h, done, asked), async (late) => {
      if (late.finished) this.p.deps.jobChanged(late.finished);
      await this.giveBackLate(late, h.token);
    });
    if (answer === AWAY || !answer.finished) return { finished: null, asked: false };
    const next = answer.unreadable ?? (asked ? await this.p.worker.fetched(answer.res, h.token) : undefined);
    return { finished: answer.finished, asked, ...(next ? { next: { job: next, token: h.token } } : {}) };
  }

  /** One outcome into Redis, tried again while the lock is still ours (a call lost with a connection); never rejects. */
  private async record(h: TakenJob, done: Report, fetch: boolean): Promise<Recorded> {
    const bullId = h.job.id!;
    const paths = this.p.deps.logPaths(done.jobId);
    const row = tailRow(paths);
    const o = done.outcome;
    let answer: Finished = { res: undefined };
    // The tail goes first, on the same connection, so whoever sees the job finished can read it.
    if (row) void h.job.log(row).catch(() => {});
    for (let tries = 1; ; tries++) {
      try {
        const fetching = fetch && tries === 1;
        if (o.state === 'succeeded') answer = await this.orUnreadableNext(h.job, h.job.moveToCompleted(this.returnValue(done), h.token, fetching), h.token, fetching);
        else {
          const record: AttemptRecord = { attempt: h.attempt, startedAt: h.startedAt, finishedAt: Date.now(), outcome: o.state, exitCode: o.exitCode, error: o.error };
          // BullMQ retries nothing unrecoverable: a cancel, or a payload the worker refused for good.
          const error = o.state === 'cancelled' ? new UnrecoverableError(o.error ?? 'cancelled while running') : o.final ? new UnrecoverableError(o.error ?? 'failed') : new Error(o.error ?? 'failed');
          answer = await this.orUnreadableNext(h.job, h.job.moveToFailed(attemptError(record, error), h.token, fetching), h.token, fetching);
          if (o.state === 'cancelled') await this.p.conns.work.hincrby(this.p.key('meta'), 'cancelled', 1);
        }
        break;
      } catch (error) {
        const now = tries < RECORD_TRIES ? await this.stillOurs(h) : 'lost';
        if (now === 'ours') continue;
        this.p.worker.letGo(bullId);
        if (now === 'recorded') return { finished: this.finishedSummary(h, done, 'completed'), res: undefined };
        // Its lock was lost (Redis away longer than the lock lasts): BullMQ gives the job to whoever checks for stalled ones.
        this.p.deps.log(`lane ${this.p.lane.name}: the outcome of job ${done.jobId} could not be recorded (${describe(error)}); it will run again`);
        return { finished: null, res: undefined };
      }
    }
    this.p.worker.letGo(bullId);
    if (row) removeFiles(paths);
    return { ...answer, finished: this.finishedSummary(h, done, o.state === 'succeeded' ? 'completed' : (answer.state ?? afterFailure(h.job))) };
  }

  /** After a failed try: the lock still ours (try again, once Redis answers), the success already recorded by an earlier try, or lost. */
  private async stillOurs(h: TakenJob): Promise<'ours' | 'recorded' | 'lost'> {
    try {
      await this.p.conns.whenReachable();
      const [lock, state] = await Promise.all([this.p.conns.work.get(`${this.p.queue.toKey(h.job.id!)}:lock`), this.p.queue.getJobState(h.job.id!)]);
      if (state === 'completed') return 'recorded';
      return lock === h.token && state === 'active' ? 'ours' : 'lost';
    } catch {
      return 'lost';
    }
  }

  /** Started when the worker went on to it, not when it was taken for its hand: how long jobs run decides hands. */
  private finishedSummary(h: TakenJob, done: Report, state: BullState): JobSummary {
    const returnvalue = state === 'completed' ? this.returnValue(done) : h.job.returnvalue;
    return summaryOf(done.jobId, this.p.lane.name, state, { ...fieldsOfJob(h.job), processedOn: h.startedAt, returnvalue });
  }

  /** BullMQ's returnvalue of a job that succeeded here: what its producer reads (job-data.ts). */
  private returnValue(done: Report): object {
    return returnValue(done.jobId, this.p.deps.machine, done.outcome.result, this.p.lane.workerCommand !== null);
  }


  private announce(job: Job, state: BullState): void {
    const id = this.p.idOf(job.id);
    if (id !== null) this.p.deps.jobChanged(summaryOf(id, this.p.lane.name, state, fieldsOfJob(job)));
  }
}
