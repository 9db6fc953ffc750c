// Jobs a BullMQ producer queued with an id of its own (`jobId`, BullMQ's dedup), as Lanes ids.
// Every Lanes id is a number, the same on every engine of the lane (store/job-ids.ts); a job
// BullMQ numbered has one by its number. A named job is given a number from the same counter
// BullMQ numbers jobs with, once, by a script in Redis, so every engine that meets the name
// reads the same number and no job BullMQ numbers later can have it. Both directions are kept
// in two hashes of Lanes' own, and each engine remembers the names it has met.
//
// The hashes grow with every named job; a name whose job BullMQ has removed (retention) is
// dropped a few hundred at a time, so they stay as bounded as the queue itself.
import type { Redis } from 'ioredis';
import { bullIdOf, sharedId } from '../store/job-ids.js';

/** KEYS: name → number, number → name, BullMQ's id counter; ARGV: the name. The number it has, or a new one. */
const ASSIGN = `
local n = redis.call('HGET', KEYS[1], ARGV[1])
if n then return n end
n = redis.call('INCR', KEYS[3])
redis.call('HSET', KEYS[1], ARGV[1], n)
redis.call('HSET', KEYS[2], n, ARGV[1])
return n`;

/** KEYS: name → number, number → name; ARGV: the cursor, the jobs' key prefix. Drops names whose job is gone; the next cursor. */
const PRUNE = `
local page = redis.call('HSCAN', KEYS[1], ARGV[1], 'COUNT', 200)
local entries = page[2]
for i = 1, #entries, 2 do
  if redis.call('EXISTS', ARGV[2] .. entries[i]) == 0 then
    redis.call('HDEL', KEYS[1], entries[i])
    redis.call('HDEL', KEYS[2], entries[i + 1])
  end
end
return page[1]`;

/** Names remembered here; beyond this the oldest are forgotten (they are read again from Redis when met). */
const REMEMBERED_MAX = 50_000;
/** A job's id as BullMQ numbers it (the only ids Lanes itself gives). */
const NUMBERED = /^[1-9]\d{0,11}$/;

export const isNamed = (bullId: string): boolean => !NUMBERED.test(bullId);

export class NamedIds {
  private readonly byName = new Map<string, number>();
  private readonly byId = new Map<number, string>();
  private cursor = '0';
  private readonly keys: string[];

  constructor(
    private readonly redis: Redis,
    private readonly slot: number,
    /** `<prefix>:<lane>:`: BullMQ's keys of the lane. */
    private readonly queueKey: string,
    /** A key of Lanes' own for the lane. */
    key: (name: string) => string,
  ) {
    this.keys = [key('named-ids'), key('named-by-number'), `${queueKey}id`];
  }

  /** Lanes' id for a BullMQ id, when it is known here without asking Redis; null otherwise. */
  known(bullId: string): number | null {
    return isNamed(bullId) ? (this.byName.get(bullId) ?? null) : sharedId(this.slot, bullId);
  }

  /** BullMQ's id for a Lanes id, when it is known here (a name met, or a number). */
  bullIdOf(id: number): string {
    return this.byId.get(id) ?? bullIdOf(id);
  }

  private remember(name: string, id: number): number {
    this.byName.delete(name);
    this.byName.set(name, id);
    this.byId.set(id, name);
    if (this.byName.size > REMEMBERED_MAX) {
      const [oldest, oldId] = this.byName.entries().next().value as [string, number];
      this.byName.delete(oldest);
      this.byId.delete(oldId);
    }
    return id;
  }

  /** Lanes' ids for BullMQ's ids, a named one given its number if it has none yet; null for what is no id at all. */
  async idsFor(bullIds: readonly string[]): Promise<(number | null)[]> {
    const unknown = [...new Set(bullIds.filter((b) => isNamed(b) && b.length > 0 && b.length <= 500 && !this.byName.has(b)))];
    if (unknown.length > 0) {
      const pipe = this.redis.pipeline();
      for (const name of unknown) pipe.eval(ASSIGN, 3, ...this.keys, name);
      const replies = (await pipe.exec()) ?? [];
      replies.forEach(([error, n], i) => {
        const id = error ? null : sharedId(this.slot, String(n));
        if (id !== null) this.remember(unknown[i]!, id);
      });
    }
    return bullIds.map((b) => this.known(b));
  }

  async idFor(bullId: string | undefined): Promise<number | null> {
    return bullId === undefined ? null : (await this.idsFor([bullId]))[0]!;
  }

  /** BullMQ's id for a Lanes id: the name it was given, if it was a named job. */
  async bullIdFor(id: number): Promise<string> {
    const known = this.byId.get(id);
    if (known !== undefined) return known;
    const name = await this.redis.hget(this.keys[1]!, bullIdOf(id));
    if (name === null) return bullIdOf(id);
    this.remember(name, id);
    return name;
  }

  /** Drops a page of names whose jobs BullMQ has removed. */
  async prune(): Promise<void> {
    this.cursor = String(await this.redis.eval(PRUNE, 2, this.keys[0]!, this.keys[1]!, this.cursor, this.queueKey));
  }
}
