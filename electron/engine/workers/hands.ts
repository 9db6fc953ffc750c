// Jobs in hand: under a deep backlog of short jobs a worker is handed a few at once and goes
// from one to the next without waiting on the engine. This decides how many, and keeps what the
// hands hold, so no job is claimed or handed twice. The jobs stay queued in the store until the
// worker says it went on to one.
import type { JobSummary } from '../../../shared/model.js';
import { HAND_MAX } from '../store/job-statements.js';
import type { WorkerRecord } from './pool-types.js';
import type { TurnMessage } from './reports.js';

/**
 * A shared lane's hand holds one: every finish brings the next job back in the same call to
 * Redis, so one in hand keeps the worker going; more would be jobs locked to this engine that an
 * idle worker elsewhere could run, each taken with a call of its own.
 */
export const SHARED_HAND_MAX = 1;
/**
 * A hand holds about as much work as this many jobs at the edge of short take (100 ms at the
 * default): four of those, and more of shorter ones up to HAND_MAX, so the engine is asked once
 * per that much work, and what a hand keeps from another worker stays small.
 */
export const HAND_SPAN = 4;
/**
 * A job that ran as long as a whole hand was meant to last says its lane's jobs are not short (a
 * guess was wrong, or the jobs changed): its worker gives the rest of its hand back.
 */
export const handBackMs = (below: number): number => HAND_SPAN * below;

/** The job in hand a message says the worker goes on to, if it says so. */
export const goesOnTo = (m: TurnMessage): { jobId: number; attempt: number } | undefined => (m.t === 'done' ? m.next : m.t === 'started' ? m : undefined);

export class Hands {
  /** Per lane, how long its jobs run (ms, moving average): hands are only for short ones. */
  private readonly pace = new Map<string, number>();
  /** Per lane, jobs of a dead worker's hand held back until what it may have started of them is gone. */
  private readonly held = new Map<string, Set<number>>();

  constructor(
    private readonly workers: ReadonlyMap<string, WorkerRecord>,
    /** The lane's queued jobs, those in hands included. */
    private readonly queued: (lane: string) => number,
    /** Whether the lane's queue is shared with other engines. */
    private readonly shared: (lane: string) => boolean,
    /** The pace below which a lane's workers get hands (ENGINE_DEFAULTS; tests on a loaded machine set it high). */
    private readonly below: number,
  ) {}

  /**
   * How many jobs to hand a worker beyond the one it runs: none unless the lane's jobs are short
   * (then waiting on the engine between them is what costs), none while its backlog is shallow
   * (another worker may want them), and when it is deep as many as HAND_SPAN allows for the lane's
   * pace, up to HAND_MAX (SHARED_HAND_MAX for a shared lane). Asking `ahead` (it goes on to a job
   * in hand meanwhile) nothing is claimed with the answer, so all of its share may go in hand.
   *
   * A worker promised to another lane asks there. Asking ahead behind a short job, it takes at
   * least the new lane's first job, and while that lane's pace is unknown, takes its jobs as if
   * they were as short as the ones it leaves: it goes on to them without a trip to the engine,
   * and if the first runs long the worker gives the rest back (handBackMs), so a wrong guess keeps
   * them from other workers for one job at most. Behind a long job it changes lanes only once free.
   */
  size(w: WorkerRecord, ahead: boolean): number {
    const moving = w.moveTo !== undefined;
    if (moving && ahead && !this.isShort(w.lane)) return 0;
    const guess = moving && ahead;
    const lane = w.moveTo ?? w.lane;
    const there = this.onLane(lane);
    // Never below none: a shared lane's counts are as last read, and may trail its hands.
    const free = Math.max(0, this.queued(lane) - there.inHand);
    const share = Math.floor(free / (there.workers + (moving ? 1 : 0))) - (ahead ? 0 : 1);
    const pace = this.pace.get(lane) ?? (guess ? this.pace.get(w.lane) : undefined);
    const least = guess ? 1 : 0;
    if (pace === undefined || pace >= this.below) return Math.min(free, least);
    const most = this.shared(lane) ? SHARED_HAND_MAX : Math.min(HAND_MAX, Math.floor((HAND_SPAN * this.below) / Math.max(pace, 0.001)));
    return Math.min(free, Math.max(least, Math.min(most, share)));
  }

  /** The lane's queued jobs that no worker holds in hand. */
  untaken(lane: string): number {
    return this.queued(lane) - this.onLane(lane).inHand;
  }

  /** The lane's workers, and the jobs in their hands. */
  private onLane(lane: string): { workers: number; inHand: number } {
    let workers = 0;
    let inHand = 0;
    for (const x of this.workers.values()) {
      if (x.lane !== lane) continue;
      workers++;
      inHand += x.hand.length;
    }
    return { workers, inHand };
  }

  /** A local lane's last queued jobs were just taken: its workers may be promised elsewhere. */
  tookLast(lane: string): boolean {
    return !this.shared(lane) && this.untaken(lane) <= 0;
  }

  private isShort(lane: string): boolean {
    return (this.pace.get(lane) ?? Infinity) < this.below;
  }

  /**
   * How long the lane's jobs run, as a moving average over the last few dozen: as the worker
   * timed the run (`ran`, heard with its report, before its next ask is answered), or where it
   * did not say, from the store's times, which also count the trips between engine and worker.
   */
  timed(job: JobSummary): void {
    if (job.startedAt !== null && job.finishedAt !== null) this.ran(job.lane, job.finishedAt - job.startedAt);
  }

  ran(lane: string, ms: number): void {
    const was = this.pace.get(lane);
    this.pace.set(lane, was === undefined ? ms : was + (ms - was) / 32);
  }

  /** Keeps `ids` from being claimed or handed until `until` settles. */
  hold(lane: string, ids: readonly number[], until: Promise<unknown>): void {
    const set = this.held.get(lane) ?? new Set<number>();
    for (const id of ids) set.add(id);
    this.held.set(lane, set);
    const release = () => {
      for (const id of ids) set.delete(id);
      if (set.size === 0 && this.held.get(lane) === set) this.held.delete(lane);
    };
    until.then(release, release);
  }

  /** Lane → the ids in its workers' hands (and held back): not to be claimed or handed again. */
  inHandByLane(): Map<string, Set<number>> {
    const byLane = new Map<string, Set<number>>([...this.held].map(([lane, ids]) => [lane, new Set(ids)]));
    for (const w of this.workers.values()) {
      if (w.hand.length === 0) continue;
      const ids = byLane.get(w.lane) ?? new Set<number>();
      for (const h of w.hand) ids.add(h.id);
      byLane.set(w.lane, ids);
    }
    return byLane;
  }
}
