// Which engines work a shared lane, and how many workers each runs: what a nudge says of the
// other machines. Each engine keeps a small record of its own that expires unless renewed, so an
// engine that was killed drops out by itself, and no engine's clock is compared with another's.
// (BullMQ can list its workers, but only through CLIENT LIST, which ACL users rarely may run.)
import type { Redis } from 'ioredis';
import { z } from 'zod';

/** A record not renewed for this long is an engine that went away. */
const TTL_SECONDS = 15;
const RENEW_MS = 5_000;
/** Engines looked at, however many the set claims. */
const ENGINES_READ = 200;

const record = z.object({ machine: z.string().max(64), workers: z.number().int().min(0).max(10_000), busy: z.number().int().min(0).max(10_000) });

export class Presence {
  private mine = { workers: 0, busy: 0 };
  private written = '';
  private writtenAt = 0;
  elsewhere = { workers: 0, machines: 0 };

  constructor(
    private readonly redis: Redis,
    /** `<prefix>:<lane>:lanes:engines`: the set of engine ids; each id's record is `…:engine:<id>`. */
    private readonly setKey: string,
    private readonly engineId: string,
    private readonly machine: string,
  ) {}

  private keyOf(id: string): string {
    return `${this.setKey.replace(/engines$/, 'engine')}:${id}`;
  }

  set(workers: number, busy: number): void {
    this.mine = { workers, busy };
  }

  /** Writes this engine's record when it changed or is due, and reads everyone else's. */
  async refresh(now: number): Promise<boolean> {
    const value = JSON.stringify({ machine: this.machine, ...this.mine });
    const pipe = this.redis.pipeline();
    if (value !== this.written || now - this.writtenAt >= RENEW_MS) {
      pipe.set(this.keyOf(this.engineId), value, 'EX', TTL_SECONDS).sadd(this.setKey, this.engineId);
      this.written = value;
      this.writtenAt = now;
    }
    await pipe.exec();
    const ids = ((await this.redis.srandmember(this.setKey, ENGINES_READ)) as string[]).filter((id) => id !== this.engineId && id.length <= 200);
    const values = ids.length > 0 ? await this.redis.mget(ids.map((id) => this.keyOf(id))) : [];
    const machines = new Set<string>();
    let workers = 0;
    const gone: string[] = [];
    values.forEach((v, i) => {
      if (v === null) return void gone.push(ids[i]!);
      try {
        const r = record.safeParse(JSON.parse(v));
        if (!r.success || r.data.workers === 0) return;
        workers += r.data.workers;
        machines.add(r.data.machine);
      } catch {
        // Not a record Lanes wrote: not counted.
      }
    });
    if (gone.length > 0) await this.redis.srem(this.setKey, ...gone);
    const was = this.elsewhere;
    this.elsewhere = { workers, machines: machines.size };
    return was.workers !== workers || was.machines !== machines.size;
  }

  /** This engine leaves the lane (or stops): its workers no longer count anywhere. */
  async leave(): Promise<void> {
    await this.redis.pipeline().del(this.keyOf(this.engineId)).srem(this.setKey, this.engineId).exec();
  }
}
