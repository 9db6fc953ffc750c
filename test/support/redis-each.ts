// One redis-server for a test file, emptied after each test, with an admin client for looking at
// (or writing straight into) what BullMQ keeps. Apart from redis.ts, which the benchmark also
// uses, because this one registers vitest's hooks.
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { startRedis, type RedisServer } from './redis.js';

export interface FileRedis {
  readonly redis: RedisServer;
  readonly admin: Redis;
}

export function redisForFile(): FileRedis {
  let redis: RedisServer | undefined;
  let admin: Redis | undefined;
  beforeAll(async () => {
    redis = await startRedis();
    admin = new Redis({ host: '127.0.0.1', port: redis.port, maxRetriesPerRequest: null });
  });
  afterEach(async () => {
    await admin?.flushall();
  });
  afterAll(async () => {
    await admin?.quit();
    await redis?.remove();
  });
  return {
    get redis() {
      return redis!;
    },
    get admin() {
      return admin!;
    },
  };
}
