// The durable queue: what each state change means, and which of them must be on disk before
// anyone hears of it. The SQL is in job-statements.ts. Reads on the hot path return summaries:
// the spec is parsed only when a job is claimed, the answer only when it is asked for.
import type { Job, JobSpec, JobState, JobSummary } from '../../../shared/model.js';
import { ERROR_MAX_CHARS } from '../../../shared/limits.js';
import { durably, type Db } from './db.js';
import type { JobCounts, Move } from './counts.js';
import { GroupSync } from './group-sync.js';
import { SPEC_AT, TIMEOUT_AT, commandLine, describedSpec, toJob, toSummary, type ClaimedRow, type SummaryRow } from './job-rows.js';
import { parseSpecJson } from '../../../shared/schemas.js';
import { prepareJobStatements, type JobStatements, type RunningRow } from './job-statements.js';
import { JobWaits } from './job-waits.js';

export type { RunningRow } from './job-statements.js';

/** How a run ended, as the store records it (whoever ran it says so in this shape). */
export interface RunOutcome {
  state: Extract<JobState, 'succeeded' | 'failed' | 'cancelled'>;
  exitCode: number | null;
  error: string | null;
  /** What a persistent worker answered, already checked against the answer limits. */
  result?: unknown;
  /** It first waited this long for its worker's command to load. */
  loadMs?: number;
}

/** A job handed to a worker: what it runs, and how long it may take. */
export interface ClaimedJob extends JobSummary {
  /** What it runs, as stored: the worker parses it. */
  specJson: string;
  timeoutMs: number | null;
}

export interface NewJob {
  lane: string;
  spec: JobSpec;
  maxAttempts: number;
  timeoutMs: number | null;
  /** Within its lane, higher runs first (default 0). */
  priority?: number;
  /** Not runnable before then; null or absent: at once. */
  notBefore?: number | null;
  /** Runnable only once these have succeeded (local lanes). */
  after?: number[];
  labels?: string[];
  /** The finished job it runs again. */
  restartOf?: number;
}

/** A queued job's runnable part, as an edit leaves it (the handler fills in what it keeps). */
export interface JobEdit {
  spec: JobSpec;
  maxAttempts: number;
  timeoutMs: number | null;
  priority: number;
  notBefore: number | null;
  /** Replaces what it runs after; undefined: unchanged. */
  after?: number[];
  labels: string[];
}

/** What ending jobs meant for the jobs that run after them, once committed. */
export interface Settled {
  /** Dependents failed because a job they run after failed or was cancelled. */
  failed: JobSummary[];
  /** Lanes where a job became runnable (its last dependency succeeded, or its time came). */
  runnable: Set<string>;
}

/** A worker's word that its run of a job ended, and when a failed run may be tried again. */
export interface Report {
  jobId: number;
  worker: string;
  attempt: number;
  outcome: RunOutcome;
  retryAt: number | null;
}

/** One worker's message of a turn, as the store records it. */
export interface Turn {
  /** The outcome it reports. */
  done: Report | null;
  /** A job in its hand it has gone on to: recorded as started now. */
  started: { id: number; worker: string } | null;
  /** A job in its hand it dropped unstarted, because it was cancelled. */
  dropped: number | null;
  /** It asks for work: when idle the first is recorded as started; up to `hand` more to hold. */
  pull: { lane: string; worker: string; claimFirst: boolean; hand: number } | null;
}

export interface TurnResult {
  finished: JobSummary | null;
  started: ClaimedJob | null;
  dropped: JobSummary | null;
  claimed: ClaimedJob | null;
  /** Jobs for its hand: still queued; `attempts` is the attempt they will be. */
  handed: ClaimedJob[];
  /** Jobs it would have claimed whose stored spec fails the parse: failed at once, never run. */
  rejected: JobSummary[];
}

/** Jobs chosen for one chunk of a bulk change: these ids, or the next of a lane's. */
export type ChunkSelect = { ids: number[] } | { lane: string };

/** A lane's queued jobs that cannot run yet, and the soonest moment one can by time alone (null: none by time). */
export interface NotYet {
  n: number;
  next: number | null;
  /** Of those, waiting for other jobs to succeed. */
  afterJobs?: number;
  /** Of those, waiting only for their time, and when the first is due. */
  scheduled?: number;
  scheduledNext?: number | null;
}

/** At most this many unrunnable jobs are failed in one ask; the worker asks again for the rest. */
const REJECT_PER_ASK = 16;

/** Why a claimed row cannot run (its stored spec fails the one parse every spec gets), or null. */
function unrunnable(job: ClaimedJob): string | null {
  const parsed = parseSpecJson(job.specJson);
  return 'problem' in parsed ? `cannot run: its stored command is not one Lanes accepts (${parsed.problem})` : null;
}

/** A claimed job as lists and events carry it. */
export const summaryOf = ({ specJson: _spec, timeoutMs: _timeout, ...summary }: ClaimedJob): JobSummary => summary;

function claimed(row: ClaimedRow): ClaimedJob {
  const job = toSummary(row) as ClaimedJob;
  job.specJson = row[SPEC_AT];
  job.timeoutMs = row[TIMEOUT_AT];
  return job;
}

/** Why a run did not finish, and whether it costs the job an attempt and a wait. */
export interface Interruption {
  why: string;
  /** An orderly stop of the engine is not the job's fault: the attempt is given back. */
  refund?: boolean;
  /** When a job that still has attempts may run again (backoff); null: at once. */
  retryAt: number | null;
}

const ENDED = new Set<JobState>(['succeeded', 'failed', 'cancelled']);
const labelsText = (labels: readonly string[] | undefined) => (labels && labels.length > 0 ? JSON.stringify(labels) : null);

const clipError = (error: string | null) => (error === null || error.length <= ERROR_MAX_CHARS ? error : `${error.slice(0, ERROR_MAX_CHARS - 1)}…`);

export class JobStore {
  private readonly s: JobStatements;
  private readonly group: GroupSync<Move[]>;
  /** What jobs wait for besides a worker (job-waits.ts). */
  readonly waits: JobWaits;
  /** Jobs that ended in the transaction under way: their dependents are settled before it commits. */
  private ended: JobSummary[] = [];

  constructor(
    private readonly db: Db,
    /** Kept here, where every state change happens, and counted only once it is committed. */
    readonly counts: JobCounts,
    walPath: string,
    /** Hears, once committed, what ending jobs did to the jobs that run after them. */
    private readonly settled: (s: Settled) => void = () => {},
  ) {
    this.s = prepareJobStatements(db);
    this.waits = new JobWaits(db);
    this.group = new GroupSync<Move[]>(walPath, (body) => this.write(false, body));
    this.describeOlderRows();
  }

  /**
   * One transaction; the state moves it makes count once it commits. `durable`: synced to disk
   * before it returns (what a person asked for); otherwise a crashed process still keeps it and
   * only a crash of the OS could lose the last of them.
   */
  private write<T>(durable: boolean, fn: (moves: Move[]) => T): T {
    const moves: Move[] = [];
    let settled: Settled = { failed: [], runnable: new Set() };
    const body = () => {
      this.ended = [];
      const result = fn(moves);
      settled = this.waits.settle(this.ended, Date.now(), moves);
      return result;
    };
    let result: T;
    try {
      result = durable ? durably(this.db, body) : this.db.transaction(body).immediate();
    } finally {
      this.ended = [];
    }
    this.counts.apply(moves);
    if (settled.failed.length > 0 || settled.runnable.size > 0) this.settled(settled);
    return result;
  }

  /** A job that may have ended: its dependents are settled before the transaction commits. */
  private ends<J extends JobSummary | null>(job: J): J {
    if (job && ENDED.has(job.state)) this.ended.push(job);
    return job;
  }

  /**
   * Queued work is on disk before the caller hears of it. Requests made meanwhile share one
   * transaction and one sync (group-sync.ts).
   */
  async enqueue(jobs: NewJob[], now: number): Promise<JobSummary[]> {
    const rows = await this.group.commit((moves) =>
      jobs.map((j) => {
        moves.push({ lane: j.lane, from: null, to: 'queued' });
        const notBefore = j.notBefore !== undefined && j.notBefore !== null && j.notBefore > now ? j.notBefore : null;
        if (notBefore !== null) this.waits.changed();
        const job = toSummary(this.s.insert.get(j.lane, JSON.stringify(j.spec), commandLine(j.spec), j.maxAttempts, j.timeoutMs, now, j.priority ?? 0, notBefore, labelsText(j.labels), j.restartOf ?? null)!);
        return j.after === undefined && j.labels === undefined ? job : this.waits.link(job, j.after, j.labels, now, moves);
      }),
    );
    return rows;
  }

  /**
   * A queued job changed before it runs, durably; null when it is no longer queued (it started,
   * or was cancelled, meanwhile), and then nothing changed.
   */
  edit(id: number, e: JobEdit): JobSummary | null {
    return this.write(true, (moves) => {
      const row = this.s.edit.get({ id, spec: JSON.stringify(e.spec), command: commandLine(e.spec), maxAttempts: e.maxAttempts, timeoutMs: e.timeoutMs, priority: e.priority, notBefore: e.notBefore, labels: labelsText(e.labels) });
      if (!row) return null;
      this.waits.changed();
      return this.waits.link(toSummary(row), e.after, e.labels, Date.now(), moves);
    });
  }

  /** `lanes restart --in-place`: a finished job queued again under its own id; null when it is not finished. */
  requeueFinished(id: number): JobSummary | null {
    return this.queueAgain(id, this.s.requeueFinished);
  }

  /** Lets go of the scheduled times that have come (before each sizing pass); the lanes where jobs became runnable. */
  releaseDue(now: number): Set<string> {
    return this.waits.releaseDue(now);
  }

  /** Once the writes waiting for a sync are on disk. */
  close(): Promise<void> {
    return this.group.close();
  }

  /** Records the outcome of one job (held while the disk was full), in a transaction of its own. */
  finishOne(done: Report, now: number): JobSummary | null {
    return this.write(false, (moves) => this.finish(done, now, moves));
  }

  /**
   * The reports of one turn of the event loop, from every worker that sent one, in one
   * transaction: the pages they share (the table's newest rows, the queue's head) are written
   * once for all of them. `held` (lane → ids in workers' hands) is kept up to date as jobs are
   * handed out, so two workers of a lane never get the same job.
   */
  recordTurns(turns: readonly Turn[], held: Map<string, Set<number>>, now: number): TurnResult[] {
    return this.write(false, (moves) => turns.map((t) => this.turn(t, held, now, moves)));
  }

  private turn(t: Turn, held: Map<string, Set<number>>, now: number, moves: Move[]): TurnResult {
    const result: TurnResult = { finished: null, started: null, dropped: null, claimed: null, handed: [], rejected: [] };
    if (t.done) result.finished = this.finish(t.done, now, moves);
    if (t.started) {
      const row = this.s.startHeld.get({ now, worker: t.started.worker, id: t.started.id });
      result.started = row ? claimed(row) : null;
      if (result.started) moves.push({ lane: result.started.lane, from: 'queued', to: 'running' });
    }
    if (t.dropped !== null) {
      const row = this.s.cancelQueued.get(now, t.dropped);
      result.dropped = this.ends(row ? toSummary(row) : null);
      if (result.dropped) moves.push({ lane: result.dropped.lane, from: 'queued', to: 'cancelled' });
    }
    if (t.pull) {
      const { lane, worker } = t.pull;
      const mine = held.get(lane) ?? new Set<number>();
      held.set(lane, mine);
      const skip = () => JSON.stringify([...mine]);
      if (t.pull.claimFirst) {
        for (let tries = 0; tries <= REJECT_PER_ASK; tries++) {
          const row = this.s.claim.get({ now, worker, lane, skip: skip() });
          if (row) moves.push({ lane, from: 'queued', to: 'running' });
          result.claimed = row ? claimed(row) : null;
          const problem = result.claimed && tries < REJECT_PER_ASK ? unrunnable(result.claimed) : null;
          if (problem === null) break;
          const j = result.claimed!;
          const failed = this.s.reject.get({ now, error: clipError(problem), id: j.id, worker, attempt: j.attempts });
          if (failed) {
            moves.push({ lane, from: 'running', to: 'failed' });
            result.rejected.push(this.ends(toSummary(failed)));
          }
          result.claimed = null;
        }
      }
      if (t.pull.hand > 0 && (result.claimed || !t.pull.claimFirst)) {
        // Read, not marked: still queued until the worker says it went on to one.
        // One whose spec fails the parse stays queued: it is failed when it comes up to be claimed.
        result.handed = this.s.hand.all({ now, lane, skip: skip() }).slice(0, t.pull.hand).map(claimed).filter((j) => unrunnable(j) === null);
        for (const j of result.handed) {
          j.attempts += 1; // the attempt it will be
          mine.add(j.id);
        }
      }
    }
    return result;
  }

  private finish(d: Report, now: number, moves: Move[]): JobSummary | null {
    const o = d.outcome;
    const error = clipError(o.error);
    const row = this.s.finish.get({
      state: o.state,
      now,
      retryAt: d.retryAt,
      exitCode: o.exitCode,
      error,
      result: o.result === undefined ? null : JSON.stringify(o.result),
      loadMs: o.loadMs ?? null,
      id: d.jobId,
      worker: d.worker,
      attempt: d.attempt,
    });
    if (!row) return null;
    const job = toSummary(row);
    moves.push({ lane: job.lane, from: 'running', to: job.state });
    if (o.state !== 'succeeded') this.s.attempt.run(now, o.state, o.exitCode, error, d.jobId);
    return this.ends(job);
  }

  /** The job a worker holds (the pool knows which), if the store agrees it is running there. */
  runningFor(worker: string, jobId: number | undefined): RunningRow[] {
    const row = jobId === undefined ? undefined : this.s.runningById.get(jobId, worker);
    return row ? [row] : [];
  }

  allRunning(): RunningRow[] {
    return this.s.allRunning.all().flatMap(({ id }) => this.s.runningRow.get(id) ?? []);
  }

  /** Gives a running job back to the queue (or fails it when out of attempts), keeping why. */
  requeue(job: RunningRow, how: Interruption, now: number, interrupted = 0): JobSummary | null {
    return this.write(true, (moves) => {
      this.s.attempt.run(now, 'interrupted', null, how.why, job.id);
      const r = this.s.requeue.get({ refund: how.refund ? 1 : 0, now, retryAt: how.retryAt, error: clipError(how.why), interrupted, id: job.id, worker: job.worker });
      const summary = this.ends(r ? toSummary(r) : null);
      if (summary) moves.push({ lane: summary.lane, from: 'running', to: summary.state });
      return summary;
    });
  }

  /** A job the engine died under too often: failed, with why, until a person retries it. */
  holdBack(job: RunningRow, why: string, now: number): JobSummary | null {
    return this.write(true, (moves) => {
      this.s.attempt.run(now, 'interrupted', null, why, job.id);
      const r = this.s.holdBack.get(now, why, job.interrupted + 1, job.id);
      const summary = this.ends(r ? toSummary(r) : null);
      if (summary) moves.push({ lane: summary.lane, from: 'running', to: 'failed' });
      return summary;
    });
  }

  get(id: number): Job | undefined {
    const row = this.s.one.get(id);
    return row ? { ...toJob(row, this.s.history.all(id)), ...this.waits.linksOf(id) } : undefined;
  }

  summary(id: number): JobSummary | undefined {
    const row = this.s.summary.get(id);
    return row ? toSummary(row) : undefined;
  }

  cancelQueued(id: number, now: number): JobSummary | null {
    return this.write(true, (moves) => {
      const r = this.s.cancelQueued.get(now, id);
      const summary = this.ends(r ? toSummary(r) : null);
      if (summary) moves.push({ lane: summary.lane, from: 'queued', to: 'cancelled' });
      this.waits.changed();
      return summary;
    });
  }

  /** A failed or cancelled job queued again; null when it is neither. */
  retry(id: number): JobSummary | null {
    return this.queueAgain(id, this.s.retry);
  }

  /** One job queued again by `statement` (which says from which states), counted as it moves. */
  private queueAgain(id: number, statement: { get(id: number): SummaryRow | undefined }): JobSummary | null {
    return this.write(true, (moves) => {
      const from = this.s.state.get(id)?.state;
      const r = statement.get(id);
      const summary = r ? toSummary(r) : null;
      if (summary && from) moves.push({ lane: summary.lane, from, to: 'queued' });
      this.waits.changed();
      return summary;
    });
  }

  /**
   * One chunk of a bulk cancel of queued jobs — these ids (at most BULK_CHUNK), or the next of a
   * lane's — leaving those in workers' hands (`skip`) to their workers; on disk before it
   * returns. Empty when none are left.
   */
  cancelQueuedChunk(select: ChunkSelect, skip: readonly number[], now: number): Promise<JobSummary[]> {
    return this.group.commit((moves) => {
      const rows = 'ids' in select ? this.s.cancelQueuedIds.all({ now, ids: JSON.stringify(select.ids), skip: JSON.stringify(skip) }) : this.s.cancelQueuedLane.all({ now, lane: select.lane, skip: JSON.stringify(skip) });
      const jobs = rows.map(toSummary);
      for (const j of jobs) moves.push({ lane: j.lane, from: 'queued', to: 'cancelled' });
      for (const j of jobs) this.ends(j);
      if (jobs.length > 0) this.waits.changed();
      return jobs;
    });
  }

  /** One chunk of a bulk retry of jobs in `state` — these ids, or the next of a lane's; on disk before it returns. */
  retryChunk(select: ChunkSelect, state: 'failed' | 'cancelled'): Promise<JobSummary[]> {
    return this.group.commit((moves) => {
      const rows = 'ids' in select ? this.s.retryIds.all({ ids: JSON.stringify(select.ids), state }) : this.s.retryLane.all({ lane: select.lane, state });
      const jobs = rows.map(toSummary);
      for (const j of jobs) moves.push({ lane: j.lane, from: state, to: 'queued' });
      if (jobs.length > 0) this.waits.changed();
      return jobs;
    });
  }

  /**
   * When the lane's oldest runnable queued job was queued; undefined when none waits. The queue's
   * head is in priority order: the oldest is the oldest of each priority's head (usually one).
   */
  oldestQueuedAt(lane: string): number | undefined {
    let oldest: number | undefined;
    for (let head = this.s.headBelow.get(lane, Number.MAX_SAFE_INTEGER); head; head = this.s.headBelow.get(lane, head.priority)) {
      if (oldest === undefined || head.id < oldest) oldest = head.id;
    }
    return oldest === undefined ? undefined : this.s.createdAt.get(oldest)?.created_at;
  }

  /**
   * Per lane, the queued jobs that cannot run yet: retries waiting out their backoff, jobs
   * waiting for other jobs, and jobs scheduled for later; `next` is the soonest moment one of
   * them becomes runnable by time alone.
   */
  delayed(now: number): Map<string, NotYet> {
    const all = new Map<string, NotYet>(this.s.delayed.all(now).map((r) => [r.lane, { n: r.n, next: r.next, afterJobs: 0, scheduled: 0, scheduledNext: null }]));
    for (const [lane, w] of this.waits.waits()) {
      const d = all.get(lane) ?? { n: 0, next: null, afterJobs: 0, scheduled: 0, scheduledNext: null };
      all.set(lane, { n: d.n + w.afterJobs + w.scheduled, next: d.next === null ? w.next : w.next === null ? d.next : Math.min(d.next, w.next), afterJobs: w.afterJobs, scheduled: w.scheduled, scheduledNext: w.scheduledNext });
    }
    return all;
  }

  /**
   * Rows written before summaries were stored get one, a thousand at a time, once; a flag
   * remembers it is done, so later starts do not scan the table to find nothing.
   */
  private describeOlderRows(): void {
    if (this.s.flag.get('described')?.value === 1) return;
    for (let rows = this.s.undescribed.all(); rows.length > 0; rows = this.s.undescribed.all()) {
      this.db.transaction(() => {
        for (const r of rows) this.s.describe.run(describedSpec(r.spec), r.id);
      })();
    }
    this.s.setFlag.run('described', 1);
  }
}
