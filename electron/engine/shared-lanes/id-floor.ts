// A shared lane's ids keep the rule every Lanes id keeps: never handed out twice in a data
// directory's life (store/job-ids.ts). They are BullMQ's numbers, counted by one key in Redis; a
// Redis that was emptied, or a lane of the same name on another Redis, counts from 1 again, onto
// numbers whose compact records and log files this engine still holds. So whenever Redis is
// reached, that counter is raised (never lowered) above the highest number this engine has known
// in the lane's range, and nothing is queued here before it has been.
import type { LaneParts } from './parts.js';
import { PREFIX } from './parts.js';
import { bullNumberIn } from '../store/job-ids.js';
import { describe } from './connections.js';

/** KEYS: the queue's id counter; ARGV: the floor. Raised only if below it. */
const RAISE = `
local n = tonumber(redis.call('GET', KEYS[1]) or '0')
if n < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], ARGV[1]) end
return n`;

export class IdFloor {
  private raised: Promise<void>;
  private first: () => void = () => {};

  constructor(private readonly p: LaneParts) {
    this.raised = new Promise((resolve) => (this.first = resolve));
  }

  /** Once the counter was last raised (queueing waits for it). */
  get ready(): Promise<void> {
    return this.raised;
  }

  /** Redis answers: the counter goes above what this engine has known. A failure is said, and queueing goes on (BullMQ's own count stands). */
  raise(): Promise<void> {
    const floor = bullNumberIn(this.p.slot, this.p.deps.idFloor(this.p.slot));
    const done = floor === 0 ? Promise.resolve() : this.p.conns.requests.eval(RAISE, 1, `${PREFIX}:${this.p.lane.name}:id`, String(floor)).then(
      () => undefined,
      (error: unknown) => this.p.deps.log(`lane ${this.p.lane.name}: could not keep its job numbers above ${floor} (${describe(error)})`),
    );
    this.raised = done.finally(this.first);
    return this.raised;
  }
}
