// Workers on a lane's queue that are not Lanes engines: a plain BullMQ Worker someone started on
// it. Such a worker takes jobs like any other and runs its own code, not their commands, so
// nothing it reports is trusted: a job it completed is shown failed, "finished outside Lanes"
// (job-data.ts), and the lane warns while one is seen. Two ways it shows itself:
//   - every lock Lanes takes carries Lanes' mark (LANES_TOKEN); a job in BullMQ's active list
//     locked under any other token is held by an outsider (looked at every SCAN_MS while jobs run);
//   - a completion on the event stream without Lanes' returnvalue, heard at once.
// Each engine counts what it sees into one sorted set, so the lane's counts leave those jobs out
// of "succeeded" on every engine alike.
import type { SharedLaneStatus } from '../../../shared/model.js';
import { finishedByLanes } from './job-data.js';
import type { LaneParts } from './parts.js';

/** The start of every lock token a Lanes engine takes a job with. */
export const LANES_TOKEN = 'lanes-';
/** How often the active list's locks are looked at; the warning comes within this of an outsider taking a job (and the next status read). */
export const SCAN_MS = 5_000;
/** How long a warning stays after the last sighting. */
const WARN_FOR_MS = 10 * 60_000;
/** Active jobs looked at per scan, and completions outside Lanes counted (the newest). */
const ACTIVE_READ = 200;
const KEPT = 5_000;

type OutsideWorker = NonNullable<SharedLaneStatus['outsideWorker']>;

export class Outsiders {
  private last: OutsideWorker | null = null;
  private scannedAt = 0;
  /** Completions outside Lanes the lane keeps (counted as failed, not succeeded). */
  completions = 0;

  constructor(private readonly p: LaneParts) {}

  private get key(): string {
    return this.p.key('outside');
  }

  private saw(bullId: string, how: OutsideWorker['how']): void {
    const now = Date.now();
    const fresh = this.warning(now) === null;
    this.last = { seenAt: now, jobId: this.p.idOf(bullId), how };
    if (!fresh) return;
    this.p.deps.log(`lane ${this.p.lane.name}: a worker that is not Lanes ${how === 'took' ? 'took' : 'completed'} job ${bullId}; what it completes is shown as finished outside Lanes`);
    this.p.deps.changed();
  }

  /** A completion heard on the event stream: one Lanes did not record is counted, and warned of. */
  completed(bullId: string, returnvalue: unknown): void {
    if (finishedByLanes(returnvalue)) return;
    this.saw(bullId, 'completed');
    this.p.conns.requests.pipeline().zadd(this.key, 'NX', Date.now(), bullId).zremrangebyrank(this.key, 0, -KEPT - 1).exec().catch(() => {});
  }

  /** A job retried by a person: no longer one finished outside Lanes. */
  retried(bullId: string): Promise<unknown> {
    return this.p.conns.requests.zrem(this.key, bullId);
  }

  /** The count of completions outside Lanes; and, every SCAN_MS while jobs run, whose locks hold them. */
  async poll(now: number, running: number): Promise<void> {
    const redis = this.p.conns.requests;
    this.completions = Math.max(0, Number(await redis.zcard(this.key)) || 0);
    if (running === 0 || now - this.scannedAt < SCAN_MS) return;
    this.scannedAt = now;
    const ids = (await redis.lrange(this.p.queue.toKey('active'), 0, ACTIVE_READ - 1)).filter((id) => id.length <= 500);
    if (ids.length === 0) return;
    const locks = await redis.mget(ids.map((id) => `${this.p.queue.toKey(id)}:lock`));
    const i = locks.findIndex((token) => token !== null && !token.startsWith(LANES_TOKEN));
    if (i >= 0) this.saw(ids[i]!, 'took');
  }

  /** The warning while an outsider was seen lately. */
  warning(now: number): OutsideWorker | null {
    return this.last !== null && now - this.last.seenAt < WARN_FOR_MS ? this.last : null;
  }
}
