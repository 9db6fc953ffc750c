// Queueing work on a shared Lanes lane from your own Node program, with the `bullmq` package, and
// reading each job's outcome: what docs/shared-lanes.md ("Queueing from BullMQ") describes.
//
//   REDIS_URL=redis://:PASSWORD@server:6379 LANE=render node bullmq-producer.mjs /tmp/out.txt
//
// Each job appends a line to the file given (on the machine whose engine runs it).
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';

const lane = process.env.LANE ?? 'render';
const file = process.argv[2] ?? '/tmp/lanes-example.txt';
const connect = () => new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
const [connection, listening] = [connect(), connect()];
// Lanes keeps its lanes under the prefix "lanes"; the queue's name is the lane's.
const queue = new Queue(lane, { connection, prefix: 'lanes' });
const events = new QueueEvents(lane, { connection: listening, prefix: 'lanes' });
await events.waitUntilReady();

// data: { spec, timeoutMs? }. spec is what runs: { kind: 'argv', argv, cwd?, env? } or
// { kind: 'shell', script, cwd?, env? } (or { kind: 'payload', payload } on a worker-command lane).
const line = (text) => ({ spec: { kind: 'shell', script: `echo ${text} >> ${file}` } });
const jobs = [
  await queue.add('plain', line('plain')),
  // Your own id (BullMQ's dedup): adding it again returns the job already there, which runs once.
  await queue.add('nightly', { ...line('nightly'), timeoutMs: 60_000 }, { jobId: 'nightly-2026-12-02', attempts: 3, priority: 2 }),
  await queue.add('nightly', line('nightly'), { jobId: 'nightly-2026-12-02' }),
  await queue.add('later', line('later'), { delay: 1_500 }),
  await queue.add('flaky', { spec: { kind: 'shell', script: `echo flaky >> ${file}; exit 3` } }, { attempts: 2 }),
];

for (const job of jobs) {
  try {
    // returnvalue: { lanes: 1, id, exitCode, machine } (and `result`, a worker command's answer).
    const done = await job.waitUntilFinished(events);
    console.log(`${job.id}: exit ${done.exitCode}, Lanes job ${done.id} on ${done.machine}`);
  } catch (error) {
    // failedReason: Lanes' words for the last attempt.
    console.log(`${job.id}: failed: ${error.message}`);
  }
}
await events.close();
await queue.close();
await Promise.all([connection.quit(), listening.quit()]);
