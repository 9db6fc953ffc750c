// Which store holds a lane's jobs, and which holds a job: the local store for every lane unless
// the lane is shared, and for a job, the range its id is in (ids.ts). Asked for all lanes at once
// (counts, a listing of every lane), it answers from all of them together.
import type { JobPage, JobProgress, SharedLaneStatus } from '../../../shared/model.js';
import { LanesError, notFound } from '../../../shared/errors.js';
import type { LaneCounts } from '../store/counts.js';
import type { JobFilter } from '../store/job-queries.js';
import type { NotYet } from '../store/jobs.js';
import { isSharedId, slotOfId } from '../store/job-ids.js';
import type { LocalQueue } from './local-queue.js';
import type { JobQueue } from './queue.js';

/** A lane this engine shares with others on Redis: its queue, and what the engine needs of it besides. */
export interface SharedQueue extends JobQueue {
  readonly kind: 'redis';
  readonly lane: string;
  readonly slot: number;
  /** Whether it can take and finish work now (Redis reachable). */
  readonly reachable: boolean;
  status(): SharedLaneStatus;
  /** This engine's workers of the lane changed: others see it within a few seconds. */
  workersChanged(workers: number, busy: number): void;
  /** A job this engine runs said how far it has got: kept as BullMQ's own progress. */
  progress(id: number, progress: JobProgress): void;
  /** Stops talking to Redis; jobs there stay for the other engines. */
  close(): Promise<void>;
}

export class Queues {
  private readonly shared = new Map<string, SharedQueue>();

  constructor(readonly local: LocalQueue) {}

  forLane(lane: string): JobQueue {
    return this.shared.get(lane) ?? this.local;
  }

  sharedLane(lane: string): SharedQueue | undefined {
    return this.shared.get(lane);
  }

  sharedLanes(): Iterable<SharedQueue> {
    return this.shared.values();
  }

  /** The store a job id belongs to; not_found for a shared id of a lane this engine has not joined. */
  forJob(id: number): JobQueue {
    if (!isSharedId(id)) return this.local;
    const slot = slotOfId(id);
    for (const q of this.shared.values()) if (q.slot === slot) return q;
    throw notFound(`there is no job ${id} in a lane this engine has joined`, 'id');
  }

  /** The lane already holding `slot`, if any (ids.ts: two lanes of one engine may not share one). */
  slotTaken(slot: number): string | undefined {
    for (const q of this.shared.values()) if (q.slot === slot) return q.lane;
    return undefined;
  }

  join(q: SharedQueue): void {
    this.shared.set(q.lane, q);
  }

  leave(lane: string): SharedQueue | undefined {
    const q = this.shared.get(lane);
    this.shared.delete(lane);
    return q;
  }

  allCounts(): ReadonlyMap<string, LaneCounts> {
    if (this.shared.size === 0) return this.local.counts();
    const all = new Map(this.local.counts());
    for (const q of this.shared.values()) for (const [lane, c] of q.counts()) all.set(lane, c);
    return all;
  }

  notYet(now: number): ReadonlyMap<string, NotYet> {
    const local = this.local.notYet(now);
    if (this.shared.size === 0) return local;
    const all = new Map(local);
    for (const q of this.shared.values()) for (const [lane, d] of q.notYet(now)) all.set(lane, d);
    return all;
  }

  oldestQueuedAt(lane: string): number | undefined {
    return this.forLane(lane).oldestQueuedAt(lane);
  }

  blocked(lane: string): number {
    return this.forLane(lane).blocked?.(lane) ?? 0;
  }

  /**
   * A page of one lane from its store; of every lane, the pages of every store merged in id
   * order. Shared ids are all above local ones, so newest first walks the shared lanes' jobs
   * first, then the local ones; oldest first the other way round.
   */
  async page(filter: JobFilter): Promise<Omit<JobPage, 'seq'>> {
    // Labels live in this engine's store: a shared lane's jobs carry none.
    if (filter.label) return filter.lane && this.shared.has(filter.lane) ? { jobs: [], total: 0, nextBeforeId: null, nextAfterId: null } : this.local.page(filter);
    if (filter.lane) return this.forLane(filter.lane).page(filter);
    const newest = filter.order !== 'oldest';
    const cursor = newest ? filter.beforeId : filter.afterId;
    const sources: JobQueue[] = [];
    // Past a shared cursor newest first, every local job is still to come; past a local one oldest first, every shared one.
    if (newest || cursor === undefined || !isSharedId(cursor)) sources.push(this.local);
    if (!newest || cursor === undefined || isSharedId(cursor)) sources.push(...this.shared.values());
    // A shared lane whose Redis is away leaves its jobs out of a listing of every lane rather than fail it (its own listing says why).
    const settled = await Promise.allSettled(sources.map((q) => q.page(filter)));
    const pages = settled.flatMap((r) => {
      if (r.status === 'fulfilled') return [r.value];
      if (r.reason instanceof LanesError && r.reason.code === 'queue_unreachable') return [];
      throw r.reason;
    });
    const jobs = pages.flatMap((p) => p.jobs).sort((a, b) => (newest ? b.id - a.id : a.id - b.id));
    const total = pages.reduce((n, p) => n + p.total, 0);
    const at = (next: number | null) => ({ nextBeforeId: newest ? next : null, nextAfterId: newest ? null : next });
    if (jobs.length > filter.limit) return { jobs: jobs.slice(0, filter.limit), total, ...at(jobs[filter.limit - 1]!.id) };
    // A store that stopped inside a window says where to go on; the farthest-back cursor loses none.
    const more = pages.map((p) => (newest ? p.nextBeforeId : p.nextAfterId)).filter((id): id is number => id !== null);
    return { jobs, total, ...at(more.length === 0 ? null : newest ? Math.max(...more) : Math.min(...more)) };
  }
}
