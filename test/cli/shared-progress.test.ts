// A shared lane's job saying how far it has got: `lanes progress` in a job one `lanes daemon`
// runs from a lane on a real redis-server reaches BullMQ as the job's own progress, so a BullMQ
// `QueueEvents` listener (any BullMQ tool) sees it. The job waits on a fifo the test writes
// once the listener has heard: nothing here waits on a clock.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { QueueEvents } from 'bullmq';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ROOT, startDaemon, tempDataDir, type TestDaemon } from '../support/daemon.js';
import { startRedis, type RedisServer } from '../support/redis.js';

let redis: RedisServer;
let daemon: TestDaemon;
const work = tempDataDir('lanes-shared-progress-');

beforeAll(async () => {
  redis = await startRedis();
  daemon = await startDaemon({ env: { LANES_MACHINE: 'engine-a' } });
});
afterAll(async () => {
  expect(await daemon?.stop()).toBe(0);
  await redis?.remove();
  work.remove();
});

it('a QueueEvents listener sees the progress of a Lanes job on a shared lane', async () => {
  const bin = join(work.dir, 'bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'lanes'), `#!/bin/sh\nexec "${process.execPath}" "${join(ROOT, 'bin', 'lanes.js')}" "$@"\n`);
  chmodSync(join(bin, 'lanes'), 0o755);
  const fifo = join(work.dir, 'go');
  execFileSync('mkfifo', [fifo]);
  expect((await daemon.cli('lane', 'add', 'render', '--redis', redis.url, '--cap', '1')).stderr).toBe('');

  const events = new QueueEvents('render', { connection: { host: '127.0.0.1', port: redis.port }, prefix: 'lanes' });
  try {
    await events.waitUntilReady();
    const heard = new Promise<{ jobId: string; data: unknown }>((resolve) => events.on('progress', (e) => resolve(e as { jobId: string; data: unknown })));
    const added = await daemon.cli('add', '--lane', 'render', '--env', `PATH=${bin}:${process.env.PATH}`, '--', `lanes progress 3/4 "step three" && read x < ${fifo}`);
    expect(added.stderr).toBe('');
    const progress = await heard;
    expect(progress.data).toMatchObject({ fraction: 0.75, done: 3, total: 4, message: 'step three' });
    await writeFile(fifo, 'go\n');
    expect((await daemon.cli('wait', added.stdout.trim())).code).toBe(0);
  } finally {
    await events.close();
  }
});
