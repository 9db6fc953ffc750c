// One BullMQ worker process for the peer figures: a Worker of concurrency 1 whose processor does
// nothing, the closest BullMQ has to a Lanes worker handing a no-op job to its command.
//   node dist/test/bench/bullmq-worker.js REDIS_PORT QUEUE  →  sends "ready", stops on "stop"
import { Worker } from 'bullmq';

const [port, queue] = process.argv.slice(2);
const worker = new Worker(queue!, async () => null, { connection: { host: '127.0.0.1', port: Number(port) }, concurrency: 1 });
await worker.waitUntilReady();
process.send!('ready');
process.on('message', (message) => {
  if (message !== 'stop') return;
  void worker.close().finally(() => process.exit(0));
});
