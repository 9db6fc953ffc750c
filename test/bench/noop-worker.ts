// A persistent worker command that does nothing with each job (docs/worker-protocol.md): one
// JSON line in, `{"id", "ok": true}` out. Written in Node like BullMQ's no-op processor, so the
// no-op figures compare the queues, not two languages' start-up or JSON parsers.
import { createInterface } from 'node:readline';

for await (const line of createInterface({ input: process.stdin })) {
  const { id } = JSON.parse(line) as { id: number };
  process.stdout.write(`{"id":${id},"ok":true,"result":null}\n`);
}
