// The benchmark's redis-server, for the BullMQ peer and the shared lane: one of test/support's,
// without persistence (BullMQ's figure is its own work, not snapshots to disk in the middle of a
// run). Without the program the benchmark stops with one line saying what to install, rather
// than comparing against nothing.
import { startRedis as start, type RedisServer } from '../support/redis.js';

export type { RedisServer };

export async function startRedis(): Promise<RedisServer> {
  try {
    return await start();
  } catch (error) {
    process.stderr.write(`bench: ${(error as Error).message}\n`);
    process.exit(1);
  }
}
