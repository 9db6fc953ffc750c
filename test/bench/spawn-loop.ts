// The bare-spawn peer of the shell-job figure, run in a process of its own the size of a worker
// runtime: a process's heap and mappings make each fork of it dearer (from the benchmark's
// 400 MB process, spawn runs at a tenth of its rate from a 50 MB one), so the peer is spawned
// from a small process, as Lanes' worker runtime spawns each job. It imports nothing but Node.
//   node dist/test/bench/spawn-loop.js N PARALLEL ARGV…  →  prints {"jobsPerSecond", "rssBytes"}
//   node dist/test/bench/spawn-loop.js --lines FILE PARALLEL  →  each line of FILE under /bin/sh -c, the same
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Runs `argvOf(i)` for i < `n` straight from Node, `parallel` at a time, reading its output through pipes. */
async function spawnRate(argvOf: (i: number) => string[], n: number, parallel: number): Promise<number> {
  let next = 0;
  const t0 = performance.now();
  const run = (argv: string[]) =>
    new Promise<void>((resolve) => {
      const child = spawn(argv[0]!, argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
      child.stdout.resume();
      child.stderr.resume();
      child.once('close', () => resolve());
    });
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < n) await run(argvOf(next++));
    }),
  );
  return (n / (performance.now() - t0)) * 1000;
}

const args = process.argv.slice(2);
const lines = args[0] === '--lines' ? readFileSync(args[1]!, 'utf8').split('\n').filter((l) => l !== '') : null;
const jobsPerSecond = lines
  ? await spawnRate((i) => ['/bin/sh', '-c', lines[i]!], lines.length, Number(args[2]))
  : await spawnRate(() => args.slice(2), Number(args[0]), Number(args[1]));
process.stdout.write(JSON.stringify({ jobsPerSecond, rssBytes: process.memoryUsage().rss }) + '\n');
