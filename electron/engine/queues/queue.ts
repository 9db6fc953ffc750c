// The one interface between the engine and where a lane's jobs are queued. Two implementations:
// the engine's own SQLite store (local-queue.ts) and a BullMQ queue on Redis shared with other
// engines (shared-lanes/). The pool, the request handlers and the status read jobs only through
// it; the sizer, the nudge, the ledger, the CLI and the window never learn which one a lane uses.
//
// How the brief's verbs map onto it:
//   enqueue            enqueue
//   claim next,        turns: one worker report is "finish this job (complete or fail), then give
//   complete, fail       me the next one", and both stores do that as one step (SQLite in one
//                        transaction per event-loop turn; BullMQ in one script that finishes a job
//                        and fetches the next)
//   extend             a local job holds no lock; a shared one's lock is renewed by BullMQ's own
//                        lock manager for as long as this engine holds the job
//   fail (interrupted) requeue: a run that ended without an outcome (worker died, engine stopping)
//   cancel             cancelQueued, cancelElsewhere (a running job on this engine is stopped by
//                        the pool, whichever store holds it)
//   counts, list, get, log   counts/notYet/oldestQueuedAt, page, get/summary, log
import type { Job, JobPage, JobSummary, LogChunk } from '../../../shared/model.js';
import type { ParsedInput } from '../../../shared/requests.js';
import type { LaneCounts } from '../store/counts.js';
import type { JobFilter } from '../store/job-queries.js';
import type { Interruption, NewJob, NotYet, RunningRow, Turn, TurnResult } from '../store/jobs.js';

/** SQLite answers at once; Redis answers later. Callers await either. */
export type Maybe<T> = T | Promise<T>;

export type { LogPaths } from '../../job-control/log-paths.js';

export interface JobQueue {
  readonly kind: 'local' | 'redis';

  /** The jobs are stored (on disk, or acknowledged by Redis) before this resolves. */
  enqueue(jobs: NewJob[], now: number): Promise<JobSummary[]>;

  /**
   * One event-loop turn's worker reports of this store: each finishes a job (complete, fail, or
   * cancelled) and/or asks for the next. `inHand`: lane → ids in workers' hands (local lanes only).
   */
  turns(turns: readonly Turn[], inHand: Map<string, Set<number>>, now: number): Maybe<TurnResult[]>;

  /** The job the store has running on this worker, if it agrees the worker holds `jobId`. */
  runningFor(worker: string, jobId: number | undefined): RunningRow[];
  /** A run ended without an outcome: back in the queue (its backoff waited), or failed when out of attempts. */
  requeue(job: RunningRow, how: Interruption, now: number): Maybe<JobSummary | null>;
  /**
   * Jobs handed to a worker that it will not go on to (it went away, or gave them back): free for
   * any worker, on the attempt they were to be. (A local lane's never left the queue; a shared
   * lane's were taken.)
   */
  handBack(worker: string, ids: readonly number[]): Maybe<JobSummary[]>;

  /** Per lane of this store. Shared lanes: the shared queue's counts, as last read. */
  counts(): ReadonlyMap<string, LaneCounts>;
  /** Per lane, queued jobs that cannot run yet (a retry's backoff, other jobs, their time), and the soonest ready moment. */
  notYet(now: number): ReadonlyMap<string, NotYet>;
  /** When the lane's oldest waiting job was queued; undefined when none waits. */
  oldestQueuedAt(lane: string): number | undefined;
  /** Of the lane's failed jobs, the dependents that never ran (blocked_by); absent: none can be (a shared lane refuses `after`), so its status says 0. */
  blocked?(lane: string): number;

  get(id: number): Maybe<Job | undefined>;
  summary(id: number): Maybe<JobSummary | undefined>;
  /** Newest first, within the filter; `total` from the counts. */
  page(filter: JobFilter): Maybe<Omit<JobPage, 'seq'>>;
  log(id: number, input: ParsedInput<'logTail'>): Maybe<LogChunk>;

  /** A queued job will never run; null when it is not queued (any more). */
  cancelQueued(id: number, now: number): Maybe<JobSummary | null>;
  /** A job running on another engine is asked to stop there; false when no other engine can run it. */
  cancelElsewhere(id: number): Maybe<boolean>;
  /** A failed or cancelled job is queued again; null when it is neither. */
  retry(id: number): Maybe<JobSummary | null>;
}
