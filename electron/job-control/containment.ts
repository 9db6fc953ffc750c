// Ending everything a job started, whatever it did to get away. Three nets, strongest first:
// - a cgroup v2 of its own, where the OS lets us make one (Linux, a writable cgroup): every
//   descendant is in it, setsid or not, and cgroup.kill ends them all at once;
// - its process group, which ends whatever did not start a session of its own;
// - on Linux, the processes that carry the job's id in their environment (every process a job
//   starts inherits LANES_JOB_ID and LANES_ATTEMPT, and LANES_ENGINE: which engine's job, since
//   two engines of one user number their jobs alike), found by reading /proc.
// The worker uses the cgroup when a job ends, or without one the other two; the engine uses all
// three when a worker dies under a job, and at start for jobs an engine that died had running.
// A run is over when its processes are gone, not when they were signalled (endJob).
import { accessSync, constants, existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { readdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { WORKER_ENV } from '../worker-protocol/protocol.js';
import { plainWords } from './plain-line.js';
import { signalGroup } from './process-group.js';

export interface JobRef {
  id: number;
  attempt: number;
}

/** Where a job's cgroup is, under the engine's: one per attempt, named so the engine can find it. */
export const jobCgroup = (base: string, job: JobRef): string => join(base, `job-${job.id}-${job.attempt}`);

/** The cgroup v2 directory this process is in, when it may make child groups there; else null. */
export function ownCgroup(): string | null {
  if (process.platform !== 'linux') return null;
  try {
    const path = readFileSync('/proc/self/cgroup', 'utf8')
      .split('\n')
      .find((line) => line.startsWith('0::'))
      ?.slice(3);
    const mount = readFileSync('/proc/self/mountinfo', 'utf8')
      .split('\n')
      .map((line) => line.split(' '))
      .find((f) => f[f.indexOf('-') + 1] === 'cgroup2')?.[4];
    if (path === undefined || mount === undefined) return null;
    const dir = join(mount, path);
    // Making child groups needs write access here, and moving processes into them needs write
    // access to cgroup.procs (whether they can be killed at once is checked on the child).
    accessSync(dir, constants.W_OK);
    accessSync(join(dir, 'cgroup.procs'), constants.W_OK);
    return dir;
  } catch {
    return null;
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * The engine's own cgroup for its jobs (`lanes-<pid>` beside itself), or null where the OS offers
 * none. Groups left by engines that died (and whatever their jobs left in them) are ended first;
 * another engine's that still runs is left alone.
 */
export async function engineCgroup(): Promise<string | null> {
  const own = ownCgroup();
  if (own === null) return null;
  const stale = readdirSync(own).filter((name) => /^lanes-\d+$/.test(name) && !alive(Number(name.slice(6))));
  await Promise.all(stale.map((name) => removeCgroupTree(join(own, name))));
  return killableCgroup(join(own, `lanes-${process.pid}`));
}

/**
 * Makes the cgroup `dir` (a job's, or a persistent command's, under the engine's killable group),
 * or null where it cannot be made: then its processes fall back to their process group.
 */
export function makeCgroup(dir: string): string | null {
  try {
    mkdirSync(dir);
    return dir;
  } catch {
    return null;
  }
}

/** Makes the group `dir`, if it can be made and ended at once; otherwise null, and none is left. */
export async function killableCgroup(dir: string): Promise<string | null> {
  if (makeCgroup(dir) === null) return null;
  // A group can be made here, but ending one at once (cgroup.kill) is what containment rests on.
  if (existsSync(join(dir, 'cgroup.kill'))) return dir;
  await removeCgroup(dir);
  return null;
}

/**
 * argv that first moves itself into `dir`, then becomes the job: the job's first instruction runs
 * inside its cgroup. If the group is gone (the engine gave up on this attempt), it never runs.
 */
export function inCgroup(dir: string, argv: readonly string[]): string[] {
  return ['/bin/sh', '-c', 'echo $$ > "$0/cgroup.procs" && exec "$@"', dir, ...argv];
}

/** Shells that read a POSIX command line: the very shell that runs the line can enter the group first. */
const POSIX_SHELLS = new Set(['sh', 'dash', 'bash', 'zsh', 'ksh', 'mksh']);

/**
 * argv of `shell` running the command line `line`, inside the cgroup `dir` when there is one: the
 * shell moves itself into the group, then evaluates the line, so the line's first instruction
 * runs there, with no process in between and the worker never moving (moving a many-threaded
 * worker in and out cost two cgroup migrations per job on the worker's thread). $0 is the shell,
 * as under `shell -c`, and the line sees no positional parameters and no variable of ours. If the
 * group is gone, it never runs. A line of plain words under /bin/sh is exec'd by the shell at
 * once (plain-line.ts), a fork fewer. Null for a shell that may not read POSIX syntax (fish), or
 * with no group and nothing to save: then `shell -c line` as given, or spawnFromInside/inCgroup.
 */
export function shellLine(shell: string, dir: string | null, line: string): string[] | null {
  if (!POSIX_SHELLS.has(basename(shell))) return null;
  const enter = dir === null ? '' : 'echo $$ > "$1/cgroup.procs" || exit 126; ';
  const words = shell === '/bin/sh' ? plainWords(line) : null;
  if (words) return [shell, '-c', `${enter}shift; exec "$@"`, shell, dir ?? '', ...words];
  if (dir === null) return null;
  return [shell, '-c', `${enter}__lanes_line=$2; shift 2; eval "unset __lanes_line; $__lanes_line"`, shell, dir, line];
}

/** This process's own cgroup, to come back to after a spawn from inside a job's (null: never left). */
let home: string | null | undefined;
/** Whether entering a job's group worked here; once it did not, jobs go in through `inCgroup`. */
let canEnter = true;

/**
 * Runs `spawn` with this process inside the cgroup `dir` for the moment of the fork, then moves it
 * back: the child is born in the group, so its first instruction runs there, with no `/bin/sh`
 * in between to move it (the fork and exec happen before Node's spawn returns). Returns null,
 * having spawned nothing, where this process cannot enter the group; the caller then starts the
 * job through `inCgroup`. A process that cannot leave the group again would be ended with the job,
 * so it says why and exits: its engine ends the job as for any worker that dies under one.
 */
export function spawnFromInside<T>(dir: string, spawn: () => T): T | null {
  home ??= ownCgroup();
  if (home === null || !canEnter) return null;
  try {
    writeFileSync(join(dir, 'cgroup.procs'), String(process.pid));
  } catch {
    canEnter = false;
    return null;
  }
  try {
    return spawn();
  } finally {
    try {
      writeFileSync(join(home, 'cgroup.procs'), String(process.pid));
    } catch (error) {
      process.stderr.write(`lanes worker: could not leave the job's cgroup ${dir} (${(error as Error).message}); exiting\n`);
      process.exit(70);
    }
  }
}

/**
 * Ends every process in the cgroup and removes it once empty (a few tries, since dying takes a
 * moment). An empty group (the job left nothing behind, the usual case) is simply removed, at
 * once (one syscall, no trip through the thread pool): there is nothing to end, and writing
 * cgroup.kill first cost every job a write. Side by side, `true` jobs ran 10–20 % faster so.
 */
export async function removeCgroup(dir: string): Promise<void> {
  try {
    rmdirSync(dir);
    return;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
  }
  try {
    await writeFile(join(dir, 'cgroup.kill'), '1');
  } catch {
    return; // already gone
  }
  for (let i = 0; i < 50; i++) {
    try {
      await rmdir(dir);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      await new Promise((done) => setTimeout(done, 20));
    }
  }
}

export async function removeCgroupTree(dir: string): Promise<void> {
  const children = await readdir(dir, { withFileTypes: true }).catch(() => []);
  await Promise.all(children.filter((c) => c.isDirectory()).map((c) => removeCgroupTree(join(dir, c.name))));
  await removeCgroup(dir);
}

/** The variable that says which engine a job's processes belong to (its data directory's engine id). */
export const ENGINE_VAR = 'LANES_ENGINE';

/**
 * Processes (Linux) of this engine's jobs (`engine`: its id, as jobs carry it in LANES_ENGINE) that
 * `wanted` picks, by id and attempt. Processes of other users cannot be read and are not ours
 * anyway; another engine's jobs of the same user carry another engine id and are left alone.
 */
export async function processesOfJobs(engine: string, wanted: (job: JobRef) => boolean): Promise<number[]> {
  if (process.platform !== 'linux') return [];
  const pids = (await readdir('/proc').catch(() => [] as string[])).filter((d) => /^\d+$/.test(d) && Number(d) !== process.pid);
  const found: number[] = [];
  await Promise.all(
    pids.map(async (pid) => {
      const env = await readFile(`/proc/${pid}/environ`, 'latin1').catch(() => '');
      if (!env.includes(`\0${ENGINE_VAR}=${engine}\0`) && !env.startsWith(`${ENGINE_VAR}=${engine}\0`)) return;
      const id = /(?:^|\0)LANES_JOB_ID=(\d+)\0/.exec(env)?.[1];
      const attempt = /(?:^|\0)LANES_ATTEMPT=(\d+)\0/.exec(env)?.[1];
      if (id !== undefined && attempt !== undefined && wanted({ id: Number(id), attempt: Number(attempt) })) found.push(Number(pid));
    }),
  );
  return found;
}

/** How long ending one run may wait for its processes to be gone before it gives up and says so. */
export const END_BOUND_MS = 5_000;

export interface RunProcesses {
  /** Which engine's job (as LANES_ENGINE says): another engine's processes are never ours. */
  engine: string;
  /** The run's process groups, as its worker reported them. */
  pgids?: Iterable<number>;
  /**
   * The id of the worker that ran it, once that worker is dead: a child it had forked but not yet
   * turned into the job (before exec) still carries the worker's environment, not the job's.
   */
  deadWorker?: string;
}

const zombie = (stat: string) => stat.slice(stat.lastIndexOf(')') + 2)[0] === 'Z';
const groupOf = (stat: string) => Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);

/**
 * The processes of one run still alive, in one pass: (Linux) those in one of its groups, those
 * carrying its id and attempt, and those still carrying its dead worker's id; elsewhere the groups
 * that still have a member, as negative ids (a group's id to signal). A zombie runs nothing and
 * is not counted: it waits only for its parent, which may not be ours, to reap it.
 */
export async function runProcesses(job: JobRef, of: RunProcesses): Promise<number[]> {
  const groups = new Set(of.pgids ?? []);
  if (process.platform === 'win32') return [];
  if (process.platform !== 'linux') return [...groups].filter((pgid) => signalGroup(pgid, 0)).map((pgid) => -pgid);
  const mine = (env: string, name: string, value: string) => env.startsWith(`${name}=${value}\0`) || env.includes(`\0${name}=${value}\0`);
  const pids = (await readdir('/proc').catch(() => [] as string[])).filter((d) => /^\d+$/.test(d) && Number(d) !== process.pid);
  const found: number[] = [];
  await Promise.all(
    pids.map(async (pid) => {
      const stat = await readFile(`/proc/${pid}/stat`, 'latin1').catch(() => '');
      if (stat === '' || zombie(stat)) return;
      if (groups.has(groupOf(stat))) return void found.push(Number(pid));
      const env = await readFile(`/proc/${pid}/environ`, 'latin1').catch(() => '');
      if (!mine(env, ENGINE_VAR, of.engine)) return;
      const ours = (mine(env, 'LANES_JOB_ID', String(job.id)) && mine(env, 'LANES_ATTEMPT', String(job.attempt))) || (of.deadWorker !== undefined && mine(env, WORKER_ENV.id, of.deadWorker));
      if (ours) found.push(Number(pid));
    }),
  );
  return found;
}

/**
 * Ends everything of one run that can be found (its groups, its cgroup, its id in /proc) and
 * resolves once none of it is left: a run is over when its processes are, so its job may be
 * recorded finished, or given to another run, only then. Two passes in a row must find nothing,
 * since a process killed during a pass may have forked as it died. Gives up after `boundMs`
 * (a process stuck in the kernel cannot be hurried), resolving false.
 */
export async function endJob(job: JobRef, options: RunProcesses & { cgroupBase?: string | null }, boundMs = END_BOUND_MS): Promise<boolean> {
  for (const pgid of options.pgids ?? []) signalGroup(pgid, 'SIGKILL');
  if (options.cgroupBase) await removeCgroup(jobCgroup(options.cgroupBase, job));
  const deadline = Date.now() + boundMs;
  for (let empty = 0; empty < 2; ) {
    const left = await runProcesses(job, options);
    for (const pid of left) killQuietly(pid);
    empty = left.length === 0 ? empty + 1 : 0;
    if (Date.now() > deadline) return false;
    if (empty < 2) await new Promise((done) => setTimeout(done, 10));
  }
  return true;
}

export function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Gone already.
  }
}
