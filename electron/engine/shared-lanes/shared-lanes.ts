// Joining and leaving shared lanes. BullMQ and its Redis client are loaded only here, and only
// once a lane is shared: an engine without shared lanes never loads them (nor does the CLI).
import type { LaneRow } from '../store/lanes.js';
import type { SharedLaneDeps } from './deps.js';
import { badRequest, conflict } from '../../../shared/errors.js';
import { isLoopback, parseRedisUrl, redactedRedisUrl, type RedisAddress } from '../../../shared/redis-url.js';
import { slotOf } from '../store/job-ids.js';
import type { Queues } from '../queues/queues.js';

type SharedModule = typeof import('./open.js');

/** The address of a lane's queue, or a bad_request on `queue.redis` saying why it will not be used. */
export function checkedAddress(row: Pick<LaneRow, 'queue'>): RedisAddress {
  const a = parseRedisUrl(row.queue!.redis);
  if ('problem' in a) throw badRequest(a.problem, 'queue.redis');
  if (!isLoopback(a.host) && a.password === null && !row.queue!.insecure) {
    throw badRequest(
      `${redactedRedisUrl(a)} is not on this machine and has no password: anyone who can reach it could run commands here as you. ` +
        'Give one (redis://:PASSWORD@HOST:PORT, or an ACL user: redis://USER:PASSWORD@HOST:PORT), or add --insecure-redis if that network is yours alone',
      'queue.redis',
    );
  }
  return a;
}

export class SharedLanes {
  private module: Promise<SharedModule> | null = null;

  constructor(
    private readonly queues: Queues,
    private readonly deps: SharedLaneDeps,
  ) {}

  private load(): Promise<SharedModule> {
    return (this.module ??= import('./open.js'));
  }

  /** At start: each shared lane connects in the background; one whose Redis is away says so in its status. */
  async openAll(rows: readonly LaneRow[]): Promise<void> {
    const shared = rows.filter((r) => r.queue !== null);
    if (shared.length === 0) return;
    const { openSharedQueue } = await this.load();
    for (const row of shared) {
      try {
        this.queues.join(openSharedQueue(row, checkedAddress(row), this.deps));
      } catch (error) {
        this.deps.log(`lane ${row.name}: its shared queue cannot be used: ${(error as Error).message}`);
      }
    }
  }

  /**
   * A lane being added as shared: Redis must answer and agree about the lane before anything is
   * stored, so a mistyped address or a password Redis refuses is said at once.
   */
  async join(row: LaneRow): Promise<void> {
    const address = checkedAddress(row);
    const slot = slotOf(row.name);
    const other = this.queues.slotTaken(slot);
    if (other !== undefined) throw conflict(`the job ids of a shared lane named "${row.name}" would fall in the range of shared lane "${other}"; give it another name`, 'name');
    const { openSharedQueue, ready } = await this.load();
    const q = openSharedQueue(row, address, this.deps);
    try {
      await ready(q);
    } catch (error) {
      await q.close();
      throw error;
    }
    this.queues.join(q);
  }

  async leave(lane: string): Promise<void> {
    await this.queues.leave(lane)?.close();
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.queues.sharedLanes()].map((q) => this.leave(q.lane)));
  }
}
