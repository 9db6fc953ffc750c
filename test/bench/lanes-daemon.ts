// Lanes as a person runs it for these figures: a real `lanes daemon` in a fresh data directory,
// reached over its socket through the one client, as the CLI reaches it. Running the engine in
// a process of its own lets the benchmark read that process's CPU time and disk writes from
// /proc, apart from the benchmark's own.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from '../../electron/cli/connect.js';
import { appRoot } from '../../electron/paths/app-files.js';
import type { LanesClient } from '../../shared/client/client.js';
import type { RequestInput, RequestName, RequestOutput } from '../../shared/requests.js';
import { perSecond, until } from './stats.js';

type AddJobInput = RequestInput<'addJob'>;

export const NOOP_WORKER = [process.execPath, join(appRoot, 'dist', 'test', 'bench', 'noop-worker.js')];

/** The engine's ceiling is 2 here (2 cores, all working: a daemon knows nobody at the computer), as on the 2-core machines these figures compare. */
export const BENCH_ENV = { LANES_CORES: '2', LANES_TICK_MS: '60000' };

export const CLI = join(appRoot, 'bin', 'lanes.js');

export interface Daemon {
  dataDir: string;
  /** What a `lanes` call needs in its environment to find this engine without --data-dir (see `asPerson`). */
  cliEnv: Record<string, string>;
  /** The engine's process. */
  pid: number;
  client: LanesClient;
  /** What the engine has written to stderr so far (its diagnostics). */
  stderr(): string;
  api<K extends RequestName>(name: K, input: RequestInput<K>): Promise<RequestOutput<K>>;
}

export interface DaemonOptions {
  /**
   * The engine in the data directory a person's is in, the default one, named by no flag: here
   * under a fresh XDG_DATA_HOME (Linux's place for it), which its `lanes` calls are given too.
   */
  asPerson?: boolean;
}

/** (test/support/daemon.ts finds the CLI from its source location, so the compiled benchmark starts its own.) */
async function startDaemon(env: Record<string, string>, options: DaemonOptions): Promise<{ daemon: Daemon; child: ChildProcess; scratch: string }> {
  const scratch = mkdtempSync(join(tmpdir(), 'lanes-bench-'));
  const dataDir = options.asPerson ? join(scratch, 'Lanes') : scratch;
  const cliEnv: Record<string, string> = options.asPerson ? { XDG_DATA_HOME: scratch } : {};
  const where = options.asPerson ? [] : ['--data-dir', dataDir];
  const child = spawn(process.execPath, [CLI, 'daemon', ...where, '--grace', '0'], { env: { ...process.env, ...env, ...cliEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (/^Window: /m.test(out)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`lanes daemon exited (${code}) before it was ready:\n${out}${err}`)));
  });
  const { client } = connect(dataDir);
  return { child, scratch, daemon: { dataDir, cliEnv, pid: child.pid!, client, stderr: () => err, api: (name, input) => client.call(name, input) } };
}

/** `stopped`: told once the engine has stopped, before its data directory goes (its last words are in `stderr`). */
export async function withDaemon<T>(fn: (d: Daemon) => Promise<T>, env: Record<string, string> = {}, stopped: (d: Daemon) => void = () => {}, options: DaemonOptions = {}): Promise<T> {
  const { daemon, child, scratch } = await startDaemon({ ...BENCH_ENV, ...env }, options);
  try {
    return await fn(daemon);
  } finally {
    await new Promise((resolve) => {
      child.once('exit', resolve);
      child.kill('SIGTERM');
    });
    stopped(daemon);
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Clock ticks per second of /proc/<pid>/stat's times: USER_HZ, 100 on every Linux build in use. */
const USER_HZ = 100;

export interface ProcessUse {
  /** User + system CPU of the process (all its threads), in ms; 10 ms resolution. */
  cpuMs: number;
  /** Bytes this process caused to be written to storage (/proc/<pid>/io write_bytes). */
  writeBytes: number;
}

export function processUse(pid: number): ProcessUse {
  // Fields after the command name (which may hold spaces) start at field 3; utime is 14, stime 15.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  const io = readFileSync(`/proc/${pid}/io`, 'utf8');
  const writeBytes = Number(/^write_bytes:\s*(\d+)/m.exec(io)?.[1] ?? NaN);
  return { cpuMs: (ticks * 1000) / USER_HZ, writeBytes };
}

/** Jobs of `lane` that have finished, succeeded or failed. */
export async function finishedIn(d: Daemon, lane: string): Promise<number> {
  const l = (await d.api('status', {})).lanes.find((x) => x.name === lane);
  return l ? l.succeeded + l.failed : 0;
}

/** Queues `jobs` in batches of 10,000 and waits until `lane` has `total` finished jobs. */
export async function queueAndDrain(d: Daemon, lane: string, jobs: AddJobInput[], total: number, what: string): Promise<void> {
  for (let i = 0; i < jobs.length; i += 10_000) await d.api('addJobs', { jobs: jobs.slice(i, i + 10_000) });
  await until(async () => (await finishedIn(d, lane)) >= total, what, 300_000, 20);
}

export interface Drain {
  jobsPerSecond: number;
  cpuUsPerJob: number;
  bytesPerJob: number;
}

/**
 * `n` jobs drained by `workers` workers of a lane, after a warm-up of `warm` jobs (the workers and
 * their commands are up before the clock starts); the engine's CPU and disk writes over the drain.
 */
export function drain(n: number, workers: number, job: AddJobInput, lane: { name: string; workerCommand?: string[] }, warm = 200, setUp?: (d: Daemon) => Promise<void>): Promise<Drain> {
  return withDaemon(async (d) => {
    if (lane.name === 'worker') await d.api('setCap', { lane: 'worker', cap: workers });
    else await d.api('addLane', { name: lane.name, cap: workers, ...(lane.workerCommand ? { workerCommand: lane.workerCommand } : {}) });
    // What the lane holds before the measured work arrives (jobs that cannot run yet, say).
    if (setUp) await setUp(d);
    const each = { ...job, lane: lane.name };
    await queueAndDrain(d, lane.name, Array(warm).fill(each), warm, `${lane.name} warm-up`);
    const before = processUse(d.pid);
    const t0 = performance.now();
    await queueAndDrain(d, lane.name, Array(n).fill(each), warm + n, `${lane.name} drain`);
    const ms = performance.now() - t0;
    const after = processUse(d.pid);
    return {
      jobsPerSecond: perSecond(n, ms),
      cpuUsPerJob: ((after.cpuMs - before.cpuMs) * 1000) / n,
      bytesPerJob: (after.writeBytes - before.writeBytes) / n,
    };
  });
}

/**
 * A process's children now, by /proc: the engine's workers (a fresh daemon has none before a
 * batch), a worker's job starter or worker command. None once it is gone.
 */
export function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}
