// A real batch, the everyday job Lanes exists for: `gzip -9 -c` of 1,000 real `.js` files from
// the repository's own node_modules, 2 at a time, through a `lanes daemon` as a person runs one
// (the lines queued with `lanes add --from`, as command lines, and waited for with `lanes wait`
// until the last one has ended), against the same 1,000 commands under `xargs -P2`, GNU parallel and task-spooler
// where they are installed. Each side's whole wall time, from the command that queues or starts
// the batch to the end of its last job, with every job's output kept on disk (Lanes: its logs;
// the peers: one output file, tsp: its own per-job files). Rounds alternate Lanes, xargs, then
// the others, so each pair shares the moment's machine.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appRoot } from '../../electron/paths/app-files.js';
import { findOnPath } from '../support/redis.js';
import { childrenOf, CLI, processUse, withDaemon } from './lanes-daemon.js';
import { compared, summarize, type Figure } from './stats.js';

const SECTION = 'A real batch';
const SPAWN_LOOP = join(appRoot, 'dist', 'test', 'bench', 'spawn-loop.js');

/** Every `.js` file of node_modules, in path order (readdir sorted): the same list on every run of one checkout. */
function jsFiles(dir: string, out: string[] = []): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
  } catch {
    return out;
  }
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory() && !e.isSymbolicLink()) jsFiles(path, out);
    else if (e.isFile() && e.name.endsWith('.js') && !/[\s'"\\$`]/.test(path)) out.push(path);
  }
  return out;
}

/** `n` files spread evenly over that list: not the largest nor the first, a sample of what is there. */
export function batchFiles(n: number): { files: string[]; bytes: number } {
  const all = jsFiles(join(appRoot, 'node_modules'));
  if (all.length < n) throw new Error(`bench: only ${all.length} .js files in node_modules, ${n} wanted`);
  const files = Array.from({ length: n }, (_, i) => all[Math.floor((i * all.length) / n)]!);
  return { files, bytes: files.reduce((s, f) => s + statSync(f).size, 0) };
}

const timedMs = (fn: () => void): number => {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
};

const sh = (script: string, cwd: string, env: NodeJS.ProcessEnv = process.env) => {
  const r = spawnSync('/bin/sh', ['-c', script], { cwd, env, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`bench: ${script} exited ${r.status}: ${r.stderr}`);
};

interface LanesBatch {
  ms: number;
  /** The engine process's CPU per job (its own, not the workers' nor the jobs'). */
  engineUsPerJob: number;
  /** The worker processes' own CPU per job (their runtime: spawning, logs, reports; not the jobs'). */
  workerUsPerJob: number;
  /** The jobs' CPU per job (each command under its shell), as their workers reaped them. */
  jobUsPerJob: number;
  /** Every process of the batch together (the CLI's add and wait, the engine, its workers, the jobs), in ms. */
  cpuMs: number;
}

/** CPU (user + system) of every child this process has reaped, and theirs, in ms: /proc/self/stat's cutime + cstime. */
function reapedCpuMs(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

/** A process's own CPU and that of the children it has reaped, in ms (/proc/<pid>/stat, 10 ms resolution). */
function cpuOf(pid: number): { own: number; jobs: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
  return { own: (f[11]! + f[12]!) * 10, jobs: (f[13]! + f[14]!) * 10 };
}

/**
 * A worker's own CPU with its job starter's (the shell that forks its jobs, where there is one),
 * and that of the jobs they have reaped.
 */
function workerCpu(pid: number): { own: number; jobs: number } {
  const cpu = cpuOf(pid);
  for (const child of childrenOf(pid)) {
    const c = cpuOf(child);
    cpu.own += c.own;
    cpu.jobs += c.jobs;
  }
  return cpu;
}

/** The batch through a fresh `lanes daemon`: `lanes add --from` the lines, then `lanes wait` for all of them. */
function lanesBatch(list: string, n: number): Promise<LanesBatch> {
  return withDaemon(async (d) => {
    await d.api('setCap', { lane: 'worker', cap: 2 });
    const before = processUse(d.pid);
    const cli = reapedCpuMs();
    const t0 = performance.now();
    // As a person waits for a batch: `lanes wait` on the ids `lanes add --from` printed, which
    // follows the event stream (asking for the lane's status every few ms instead would be the
    // benchmark's own load on the engine, about 1 ms of its CPU a call).
    await new Promise<void>((resolve, reject) => {
      const lanes = `'${process.execPath}' '${CLI}' --data-dir '${d.dataDir}'`;
      const child = spawn('/bin/sh', ['-c', `ids=$(${lanes} add --from '${list}') && ${lanes} wait $ids > /dev/null`], { stdio: ['ignore', 'ignore', 'pipe'] });
      let err = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
      child.once('error', reject);
      child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`bench: lanes add --from, then lanes wait, exited ${code}: ${err}`))));
    });
    const ms = performance.now() - t0;
    const cliMs = reapedCpuMs() - cli;
    const failed = (await d.api('status', {})).lanes.find((l) => l.name === 'worker')!.failed;
    if (failed > 0) throw new Error(`bench: ${failed} of the batch's jobs failed`);
    // Read while the workers are still there, idle: once they exit their figures go to the engine's.
    const workers = childrenOf(d.pid).map(workerCpu);
    const own = workers.reduce((s, w) => s + w.own, 0);
    const jobs = workers.reduce((s, w) => s + w.jobs, 0);
    const engineMs = processUse(d.pid).cpuMs - before.cpuMs;
    return { ms, engineUsPerJob: (engineMs * 1000) / n, workerUsPerJob: (own * 1000) / n, jobUsPerJob: (jobs * 1000) / n, cpuMs: cliMs + engineMs + own + jobs };
  });
}

/** task-spooler with 2 slots: queued one `tsp` call a line from a shell loop, timed to the end of the last job. */
function tspBatch(list: string, dir: string, n: number): number {
  const env = { ...process.env, TS_SOCKET: join(dir, 'tsp-socket'), TMPDIR: dir, TS_MAXFINISHED: String(n + 10) };
  try {
    sh('tsp -S 2', dir, env);
    // Two slots take jobs in order, so the last job to end is one of the last two queued.
    const ids = join(dir, 'tsp-ids');
    return timedMs(() => sh(`: > '${ids}'; while read -r f; do tsp gzip -9 -c "$f" >> '${ids}'; done < '${list}'; for id in $(tail -n 2 '${ids}'); do tsp -w "$id"; done`, dir, env));
  } finally {
    spawnSync('tsp', ['-K'], { env, stdio: 'ignore' });
  }
}

export async function realBatchFigures(pairs: number, n: number): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'lanes-bench-batch-'));
  try {
    const { files, bytes } = batchFiles(n);
    // Lanes' lines are what a person would write in the file for `lanes add --from`; xargs takes the paths.
    const paths = join(dir, 'paths');
    const lines = join(dir, 'lines');
    writeFileSync(paths, files.join('\n') + '\n');
    writeFileSync(lines, files.map((f) => `gzip -9 -c ${f}`).join('\n') + '\n');
    const out = join(dir, 'out');
    const xargsCpuMs: number[] = [];
    const xargs = () => {
      const cpu = reapedCpuMs();
      const ms = timedMs(() => sh(`xargs -d '\\n' -P2 -n1 gzip -9 -c < '${paths}' > '${out}'`, dir));
      xargsCpuMs.push(reapedCpuMs() - cpu);
      return ms;
    };
    const peers = [
      { name: '`xargs -P2 -n1 gzip -9 -c`', run: xargs },
      // Not a peer a person would use: what Node's own spawn costs, which Lanes' workers pay for every job.
      { name: 'the same lines under `/bin/sh -c`, spawned by a small Node process, 2 at a time', run: () => timedMs(() => execFileSync(process.execPath, [SPAWN_LOOP, '--lines', lines, '2'], { stdio: 'ignore' })) },
      ...(findOnPath('parallel') ? [{ name: 'GNU parallel -j2', run: () => timedMs(() => sh(`parallel -j2 gzip -9 -c :::: '${paths}' > '${out}'`, dir)) }] : []),
      ...(findOnPath('tsp') ? [{ name: 'task-spooler (tsp), 2 slots, queued from a shell loop', run: () => tspBatch(paths, dir, n) }] : []),
    ];
    // Once each first, so the files are in the page cache for every side.
    sh(`xargs -d '\\n' -n50 cat < '${paths}' > /dev/null`, dir);
    const lanes: LanesBatch[] = [];
    const peerMs = peers.map(() => [] as number[]);
    for (let i = 0; i < pairs; i++) {
      lanes.push(await lanesBatch(lines, n));
      peers.forEach((p, k) => peerMs[k]!.push(p.run()));
    }
    const lanesMs = lanes.map((l) => l.ms);
    const what = `\`gzip -9 -c\` of ${n.toLocaleString('en-US')} .js files from node_modules (${(bytes / 2 ** 20).toFixed(1)} MiB), 2 at a time, whole wall time`;
    const figures: Figure[] = peers.map((p, k) => {
      const f = compared({ section: SECTION, what, unit: 'ms' }, { lanes: lanesMs, peer: peerMs[k]! }, p.name);
      if (k === 0) {
        f.target = 'ratio ≤ 1.3';
        f.judge = (g) => g.compared!.value.median <= 1.3;
      }
      return f;
    });
    // On a machine that other work keeps busy, wall time is what the batch got of the cores; the
    // CPU it took is its own, so this ratio holds at any load: on 2 busy cores, wall ≈ CPU ÷ 2.
    figures.push(
      compared({ section: SECTION, what: 'CPU of the whole batch, every process (Lanes: `lanes add --from` and `lanes wait`, the engine, its workers and the jobs; xargs: itself and the jobs), user + system from /proc', unit: 'ms' }, { lanes: lanes.map((l) => l.cpuMs), peer: xargsCpuMs }, '`xargs -P2 -n1 gzip -9 -c`'),
      { section: SECTION, what: 'engine CPU per job of the batch (the `lanes daemon` process, user + system, from /proc)', unit: 'µs', lanes: summarize(lanes.map((l) => l.engineUsPerJob)) },
      { section: SECTION, what: 'worker CPU per job of the batch (the worker processes and their job starters: starting the job, its logs, its report)', unit: 'µs', lanes: summarize(lanes.map((l) => l.workerUsPerJob)) },
      compared({ section: SECTION, what: 'CPU per job of the jobs themselves (`gzip` with its shell, as their workers reaped them)', unit: 'µs' }, { lanes: lanes.map((l) => l.jobUsPerJob), peer: xargsCpuMs.map((ms) => (ms * 1000) / n) }, '`gzip` under xargs, xargs included'),
    );
    const missing = ['parallel', 'tsp'].filter((p) => !findOnPath(p));
    if (missing.length > 0) figures[0]!.note = `${missing.join(' and ')} not installed here, so not compared`;
    return figures;
  } finally {
    // A task-spooler server told to go (`tsp -K`) may still write its warning file here as it goes.
    rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  }
}
