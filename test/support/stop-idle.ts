// An engine alone in a fresh process, stopped once idle, reporting what still keeps the process
// running. Usage: node dist/test/support/stop-idle.js DATA_DIR engine|hosted
// prints {"ms": time the stop took, "left": process.getActiveResourcesInfo() after it}
import { hostEngine } from '../../electron/api/host.js';
import { openEngine } from '../../electron/engine/index.js';

const [dataDir, how] = process.argv.slice(2) as [string, string];
const options = { dataDir, cores: 3, tickMs: 60_000, log: () => {} };
let stop: () => Promise<void>;
if (how === 'hosted') {
  const host = await hostEngine(options);
  stop = () => host.close();
} else {
  const engine = await openEngine(options);
  const { id } = await engine.request('addJob', { argv: ['true'] });
  await new Promise<void>((done) => {
    const off = engine.events.subscribe((e) => {
      if (e.type === 'job' && e.data.id === id && e.data.state === 'succeeded') {
        off();
        done();
      }
    });
  });
  stop = () => engine.stop();
}
const t0 = performance.now();
// Default grace (ten seconds): with nothing running there is nothing to wait for.
await stop();
// A file operation finishing in this very turn is not something left running; a timer would be.
await new Promise((done) => setImmediate(done));
process.stdout.write(JSON.stringify({ ms: performance.now() - t0, left: process.getActiveResourcesInfo() }) + '\n');
process.exit(0);
