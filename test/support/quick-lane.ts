// A persistent lane of short jobs for the tests of jobs in hand (local and shared): a worker
// command that answers at once and writes down each payload's `n`; a payload with `wait` first
// says it started, then waits for a gate file. Helpers read what ran and end a worker by force.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const SCRIPT = 'quick-worker.cjs';

/** The worker command, written into `dir`; `ran`, `started` and `gate` are files there too. */
export function quickLane(dir: string): string[] {
  const script = join(dir, SCRIPT);
  writeFileSync(
    script,
    `const fs = require('fs'); const rl = require('readline').createInterface({ input: process.stdin });
rl.on('line', (line) => {
  const { id, payload } = JSON.parse(line);
  const answer = () => { fs.appendFileSync(${JSON.stringify(join(dir, 'ran'))}, payload.n + '\\n'); process.stdout.write(JSON.stringify({ id, ok: true }) + '\\n'); };
  if (!payload.wait) return answer();
  fs.writeFileSync(${JSON.stringify(join(dir, 'started'))}, String(payload.n));
  const poll = setInterval(() => { if (fs.existsSync(${JSON.stringify(join(dir, 'gate'))})) { clearInterval(poll); answer(); } }, 20);
});\n`,
  );
  return [process.execPath, script];
}

/** The `n` of every payload that ran, in the order they ran. */
export const ran = (dir: string): number[] => readFileSync(join(dir, 'ran'), 'utf8').trim().split('\n').map(Number);

export const payloads = (from: number, n: number, lane = 'quick') => Array.from({ length: n }, (_, i) => ({ lane, payload: { n: from + i } }));

/** Whether the waiting payload `n` has started. */
export function startedWith(dir: string, n: number): boolean {
  try {
    return readFileSync(join(dir, 'started'), 'utf8') === String(n);
  } catch {
    return false;
  }
}

/** Kills (SIGKILL) the worker runtime whose persistent command is this lane's script: its parent (Linux). */
export function killWorkerOf(dir: string): void {
  const script = join(dir, SCRIPT);
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    let cmdline = '';
    try {
      cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (!cmdline.includes(script)) continue;
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    process.kill(Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]), 'SIGKILL');
    return;
  }
  throw new Error('no worker runs the quick lane');
}
