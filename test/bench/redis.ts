// The benchmark's redis-servers, for the BullMQ peer and the shared lane: test/support's, one
// without persistence (BullMQ's figure is its own work, not snapshots to disk in the middle of a
// run), and one with `appendonly yes` + `appendfsync always` for comparing durable adds with
// durable adds (each write on disk before Redis answers, as each Lanes add is). Without the program the benchmark stops with one line saying what to install, rather
// than comparing against nothing.
import { startRedis as start, type RedisOptions, type RedisServer } from '../support/redis.js';

export type { RedisServer };

export async function startRedis(options: RedisOptions = {}): Promise<RedisServer> {
  try {
    return await start(options);
  } catch (error) {
    process.stderr.write(`bench: ${(error as Error).message}\n`);
    process.exit(1);
  }
}
