// The engine's own SQLite store behind the queue interface: a thin layer over JobStore and
// JobQueries, which keep their speed (group commit, one transaction per turn) unchanged.
import type { Job, JobPage, JobSummary, LogChunk } from '../../../shared/model.js';
import type { ParsedInput } from '../../../shared/requests.js';
import type { LogPaths } from './queue.js';
import { readLog } from './read-log.js';
import { logSpanFor } from '../../job-control/log-paths.js';
import type { LaneCounts } from '../store/counts.js';
import type { JobFilter, JobQueries } from '../store/job-queries.js';
import type { Interruption, JobStore, NewJob, NotYet, RunningRow, Turn, TurnResult } from '../store/jobs.js';
import type { JobQueue } from './queue.js';

export class LocalQueue implements JobQueue {
  readonly kind = 'local';

  constructor(
    readonly store: JobStore,
    private readonly queries: JobQueries,
    private readonly logPaths: (jobId: number) => LogPaths,
  ) {}

  enqueue(jobs: NewJob[], now: number): Promise<JobSummary[]> {
    return this.store.enqueue(jobs, now);
  }

  turns(turns: readonly Turn[], inHand: Map<string, Set<number>>, now: number): TurnResult[] {
    return this.store.recordTurns(turns, inHand, now);
  }

  runningFor(worker: string, jobId: number | undefined): RunningRow[] {
    return this.store.runningFor(worker, jobId);
  }

  requeue(job: RunningRow, how: Interruption, now: number): JobSummary | null {
    return this.store.requeue(job, how, now, job.interrupted);
  }

  /** A local job in a hand stays queued until its worker goes on to it: nothing to give back. */
  handBack(): JobSummary[] {
    return [];
  }

  counts(): ReadonlyMap<string, LaneCounts> {
    return this.store.counts.all();
  }

  notYet(now: number): ReadonlyMap<string, NotYet> {
    return this.store.notYet(now);
  }

  oldestQueuedAt(lane: string): number | undefined {
    return this.store.oldestQueuedAt(lane);
  }

  blocked(lane: string): number {
    return this.store.blocked(lane);
  }

  get(id: number): Job | undefined {
    return this.store.get(id);
  }

  summary(id: number): JobSummary | undefined {
    return this.store.summary(id);
  }

  page(filter: JobFilter): Omit<JobPage, 'seq'> {
    return this.queries.page(filter, this.store.counts.all());
  }

  log(id: number, input: ParsedInput<'logTail'>): LogChunk {
    return readLog(logSpanFor(this.logPaths(id), input.stream), input);
  }

  cancelQueued(id: number, now: number): JobSummary | null {
    return this.store.cancelQueued(id, now);
  }

  /** Nothing of this store runs anywhere but here. */
  cancelElsewhere(): boolean {
    return false;
  }

  retry(id: number): JobSummary | null {
    return this.store.retry(id);
  }
}
