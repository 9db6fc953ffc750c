// An engine alone in a fresh process, measured while nothing happens, so the figure is the
// engine's own and not the leftovers (heap, GC) of whatever the benchmark did before.
//   node dist/test/bench/idle-engine.js DATA_DIR SECONDS  →  prints {"cpuMs", "wallMs", "timers", "workers"}
//   DATA_DIR "-" measures a bare Node process the same way, for comparison.
import { createHook } from 'node:async_hooks';
import { openEngine } from '../../electron/engine/index.js';

const [dataDir, seconds] = process.argv.slice(2);
const engine = dataDir === '-' ? null : await openEngine({ dataDir: dataDir!, tickMs: 60_000, log: () => {} });
// Let start-up settle before watching: for some seconds after loading its code, V8 keeps
// compiling and collecting in the background, in any Node process, engine or not.
await new Promise((r) => setTimeout(r, 15_000));
let timers = 0;
const hook = createHook({ init: (_id, type) => void (type === 'Timeout' && timers++) }).enable();
const cpu0 = process.cpuUsage();
const t0 = performance.now();
await new Promise((r) => setTimeout(r, Number(seconds) * 1000));
const cpu = process.cpuUsage(cpu0);
const wallMs = performance.now() - t0;
hook.disable();
// The measuring sleep is one of the timers counted.
process.stdout.write(JSON.stringify({ cpuMs: (cpu.user + cpu.system) / 1000, wallMs, timers: timers - 1, workers: engine?.status().workersInUse ?? 0 }) + '\n');
await engine?.stop();
