// A persistent worker command whose job reports progress without pause: for each job of payload
// `{ seconds, perSecond }` it writes `perSecond` progress lines a second (in bursts every 10 ms)
// for that long, then answers. With `perSecond: 0` it only waits: the same job, saying nothing.
import { createInterface } from 'node:readline';

const BURST_MS = 10;

for await (const line of createInterface({ input: process.stdin })) {
  const { id, payload } = JSON.parse(line) as { id: number; payload: { seconds: number; perSecond: number } };
  const total = Math.round(payload.seconds * payload.perSecond);
  const perBurst = Math.max(1, Math.round((payload.perSecond * BURST_MS) / 1000));
  const start = Date.now();
  let done = 0;
  while (Date.now() - start < payload.seconds * 1000) {
    if (payload.perSecond > 0) {
      let burst = '';
      for (let i = 0; i < perBurst && done < total; i++) burst += `{"id":${id},"progress":{"done":${++done},"total":${total},"message":"step ${done}"}}\n`;
      process.stdout.write(burst);
    }
    await new Promise((r) => setTimeout(r, BURST_MS));
  }
  process.stdout.write(`{"id":${id},"ok":true,"result":${done}}\n`);
}
