// One redis-server for a test file, emptied after each test: what the shared-lane test files that
// need no faults of their own start with.
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { startRedis, type RedisServer } from './redis.js';

export function redisForFile(): RedisServer {
  let server: RedisServer | undefined;
  const s = (): RedisServer => {
    if (!server) throw new Error('the redis-server is not started yet: use it inside a test');
    return server;
  };
  beforeAll(async () => {
    server = await startRedis();
  });
  afterEach(async () => {
    const admin = new Redis({ host: '127.0.0.1', port: s().port });
    await admin.flushall();
    await admin.quit();
  });
  afterAll(async () => {
    await server?.remove();
  });
  return {
    get port() {
      return s().port;
    },
    get pid() {
      return s().pid;
    },
    get url() {
      return s().url;
    },
    stop: (hard) => s().stop(hard),
    restart: () => s().restart(),
    remove: () => s().remove(),
  };
}
