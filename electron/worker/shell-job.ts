// One job of a shell lane: a child in its own process group (and its own cgroup where the OS
// offers one), output streamed to capped logs. When its own process exits, everything it started
// is ended, and the job is over once that is gone; its output is read for a moment more, never
// waited on, since a descendant that escaped could hold the pipes open for ever.
import type { JobSpec } from '../../shared/model.js';
import { spawn, type ChildProcessByStdio, type SpawnOptionsWithStdioTuple } from 'node:child_process';
import type { Readable } from 'node:stream';
import { homedir } from 'node:os';
import type { JobAssignment, JobOutcome } from '../worker-protocol/protocol.js';
import { JobLogs } from './job-logs.js';
import { ENGINE_VAR, endJob, inCgroup, jobCgroup, makeCgroup, removeCgroup, shellLine, spawnFromInside } from '../job-control/containment.js';
import { findProgram, isDirectory } from '../job-control/find-program.js';
import { plainWords } from '../job-control/plain-line.js';
import { signalGroup, stopGroup, TIMEOUT_GRACE_MS } from '../job-control/process-group.js';
import { baseEnv, jobAdditions, jobEnv, type ProgressLine } from './job-env.js';
import { exportable, runThroughHelper, shellName, starterDied, type HelperCommand } from './helper-job.js';
import { SpawnHelper } from './spawn-helper.js';

export interface RunningProcess {
  pgid: number | undefined;
  done: Promise<JobOutcome>;
  cancel(graceMs: number): void;
}

/** After the job's own process exits, how long its output may still be read. */
const DRAIN_MS = 300;

/**
 * The shell a command line runs in: /bin/sh, as xargs, tsp and pueue use, unless LANES_SHELL names
 * another. Not the person's $SHELL: a login shell such as bash reads its start-up state for every
 * line, some 2.7 ms a job, and a line queued from one terminal should not mean another thing when
 * the engine was started from another.
 */
const SHELL = process.env.LANES_SHELL || '/bin/sh';

export function runShellJob(job: JobAssignment, logCap: number, cgroupBase: string | null, progress?: ProgressLine): RunningProcess {
  const spec = JSON.parse(job.specJson) as JobSpec;
  if (spec.kind === 'payload') throw new Error('payload jobs need a lane with a worker command');
  const cwd = spec.cwd ?? homedir();
  const env = jobEnv(job, spec.env, progress);
  if (spec.kind === 'argv' && findProgram(spec.argv[0]!, cwd, env) === null) return notFound(job, logCap, spec.argv[0]!);
  const logs = new JobLogs(job, logCap);
  const { stdout, stderr } = logs;
  const windows = process.platform === 'win32';
  const command = spec.kind === 'argv' ? spec.argv : [SHELL, '-c', spec.script];
  const group = windows || cgroupBase === null ? null : makeCgroup(jobCgroup(cgroupBase, job));
  const starter = group === null ? null : jobStarter();
  const through = starter && helperCommand(spec, cwd, env);
  if (starter && through && group) {
    const exports = jobAdditions(job, spec.env, progress);
    if (Object.keys(exports).every(exportable)) return throughHelper(starter, { cgroup: group, cwd, exports, command: through, timeoutMs: job.timeoutMs }, logs);
  }
  const options = {
    cwd,
    env,
    // Its own process group, so cancelling or a dying worker can end everything it started.
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'] as ['ignore', 'pipe', 'pipe'],
    windowsHide: true,
  };
  const child = spawnJob(spec, command, group, options);

  let stopping: 'cancelled' | 'timed out' | null = null;
  const timers: NodeJS.Timeout[] = [];
  child.stdout.on('data', (d: Buffer) => stdout.write(d));
  child.stderr.on('data', (d: Buffer) => stderr.write(d));

  const stop = (why: 'cancelled' | 'timed out', graceMs: number) => {
    if (stopping || child.pid === undefined) return;
    stopping = why;
    const kill = stopGroup(child.pid, graceMs);
    if (kill) timers.push(kill);
  };
  if (job.timeoutMs !== null) timers.push(setTimeout(() => stop('timed out', TIMEOUT_GRACE_MS), job.timeoutMs));

  const done = new Promise<JobOutcome>((resolve) => {
    let spawnError: Error | undefined;
    let settled = false;
    const settle = (code: number | null, signal: NodeJS.Signals | null) => {
      if (settled) return;
      settled = true;
      for (const t of timers) clearTimeout(t);
      // Whatever the job left running goes with it: its cgroup, or without one its group and
      // whatever carries its id. The job is over once they are gone, not when they were signalled.
      if (child.pid !== undefined) signalGroup(child.pid, 'SIGKILL');
      const engine = process.env[ENGINE_VAR] ?? '';
      const ended = group ? removeCgroup(group) : endJob(job, { engine, pgids: child.pid === undefined ? [] : [child.pid] });
      void Promise.all([ended, outputRead(child)]).then(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        if (spawnError) stderr.write(`lanes: could not start ${spec.kind === 'argv' ? spec.argv[0] : 'the shell'}: ${spawnError.message}\n`);
        logs.close();
        resolve(outcomeOf(code, signal, spawnError, stopping, job.timeoutMs));
      });
    };
    child.on('error', (e) => {
      spawnError = e;
      // A process that never started has no exit to wait for.
      if (child.pid === undefined) settle(null, null);
    });
    child.on('exit', settle);
  });

  return { pgid: child.pid, done, cancel: (graceMs) => stop('cancelled', graceMs) };
}

/**
 * The worker's job starter, started on its first job and again after one died; none where sh
 * would not pass the engine's environment on whole (a name it cannot hold, which it drops), or
 * once three in a row died before finishing a job: then the worker spawns each job itself.
 */
let starter: SpawnHelper | null = null;
/** Starters that died in a row before finishing a job. */
let starterDeaths = 0;
/** Whether sh passes the engine's environment on whole: read once, as it does not change. */
let envFits: boolean | undefined;
function jobStarter(): SpawnHelper | null {
  envFits ??= Object.keys(baseEnv()).every(shellName);
  if (SHELL !== '/bin/sh' || !envFits || starterDeaths >= 3) return null;
  if (starter?.alive) return starter;
  if (starter !== null) starterDeaths += 1;
  if (starterDeaths >= 3) return null;
  starter = new SpawnHelper();
  return starter;
}

/** Ends the job starter (the worker is leaving): it goes once the job it runs, if any, has. */
export const stopJobStarter = () => starter?.stop();

/** What the starter runs for a job, or null when the worker's own spawn must (a directory that is not there: it says so in words). */
function helperCommand(spec: Exclude<JobSpec, { kind: 'payload' }>, cwd: string, env: NodeJS.ProcessEnv): HelperCommand | null {
  if (!isDirectory(cwd)) return null;
  if (spec.kind === 'argv') return spec.argv[0]!.startsWith('-') ? null : { words: spec.argv };
  const words = plainWords(spec.script);
  return words && findProgram(words[0]!, cwd, env) !== null ? { words } : { line: spec.script };
}

function throughHelper(helper: SpawnHelper, job: Parameters<typeof runThroughHelper>[1], logs: JobLogs): RunningProcess {
  const run = runThroughHelper(helper, job, logs);
  const done = run.done.then(({ code, signal, died, stopping }) => {
    if (died === null) starterDeaths = 0;
    if (died !== null && stopping === null) return starterDied(died);
    return outcomeOf(code, signal, undefined, stopping, job.timeoutMs);
  });
  return { pgid: undefined, done, cancel: run.cancel };
}

/** A program that is not there: the job fails at once, and its log says why. */
function notFound(job: JobAssignment, logCap: number, program: string): RunningProcess {
  const error = `could not start: ${program} cannot be found`;
  const logs = new JobLogs(job, logCap);
  logs.stderr.write(`lanes: ${error} (not on PATH, nor a path to a program)\n`);
  logs.close();
  return { pgid: undefined, done: Promise.resolve({ state: 'failed', exitCode: null, error }), cancel: () => {} };
}

type SpawnOptions = SpawnOptionsWithStdioTuple<'ignore', 'pipe', 'pipe'>;

/**
 * The job's process, in its cgroup from its first instruction: a program is born there (the worker
 * steps in for the fork), a command line's own shell enters it before reading the line, or, where
 * the worker cannot step in, a shell moves the program there before it becomes the job.
 */
function spawnJob(spec: Exclude<JobSpec, { kind: 'payload' }>, command: readonly string[], group: string | null, options: SpawnOptions) {
  const start = (argv: readonly string[], as?: string) => spawn(argv[0]!, argv.slice(1), as === undefined ? options : { ...options, argv0: as });
  if (process.platform === 'win32' && spec.kind === 'shell') return spawn(spec.script, { ...options, shell: true });
  const direct = spec.kind === 'shell' ? plainProgram(spec.script, options) : null;
  if (direct) {
    const child = bornInside(group, () => start([direct.path, ...direct.words.slice(1)], direct.words[0]));
    // Not started, or the program would not exec (a script with no #! line, which sh runs itself):
    // the shell runs the line instead, and says what it says of it.
    if (child?.pid !== undefined) return child;
    child?.on('error', () => {});
  }
  const line = spec.kind === 'shell' ? shellLine(SHELL, group, spec.script) : null;
  if (line) return start(line);
  return group ? (bornInside(group, () => start(command)) ?? start(inCgroup(group, command))) : start(command);
}

const bornInside = <T>(group: string | null, spawnIt: () => T): T | null => (group ? spawnFromInside(group, spawnIt) : spawnIt());

/**
 * A line of plain words under /bin/sh means "run this program with these words": the program,
 * found as sh would find it, is spawned straight, with no shell before it. A shell in between cost
 * each job an exec and, entering the cgroup itself, a move: side by side from a small Node
 * process, `true` so took 2.2 ms of the child's CPU against 1.0–1.2 ms spawned inside the group.
 * Null when the shell has something to read, or no program of that name is found (then the
 * shell says so, as under `sh -c`).
 */
function plainProgram(script: string, options: SpawnOptions): { path: string; words: string[] } | null {
  if (SHELL !== '/bin/sh') return null;
  const words = plainWords(script);
  const path = words ? findProgram(words[0]!, String(options.cwd), options.env) : null;
  return words && path ? { path, words } : null;
}

/** Its output read to the end, or for a moment more: what is still open then is held by something that left the group and its id behind, and is not waited for. */
function outputRead(child: ChildProcessByStdio<null, Readable, Readable>): Promise<void> {
  return new Promise<void>((ok) => {
    if (child.stdout.closed && child.stderr.closed) return ok();
    const timer = setTimeout(ok, DRAIN_MS);
    child.once('close', () => {
      clearTimeout(timer);
      ok();
    });
  });
}

function outcomeOf(code: number | null, signal: NodeJS.Signals | null, spawnError: Error | undefined, stopping: 'cancelled' | 'timed out' | null, timeoutMs: number | null): JobOutcome {
  if (stopping === 'cancelled') return { state: 'cancelled', exitCode: code, error: 'cancelled while running' };
  if (stopping === 'timed out') return { state: 'failed', exitCode: code, error: `timed out after ${(timeoutMs ?? 0) / 1000} s` };
  if (spawnError) return { state: 'failed', exitCode: null, error: `could not start: ${spawnError.message}` };
  if (code === 0) return { state: 'succeeded', exitCode: 0, error: null };
  return { state: 'failed', exitCode: code, error: signal ? `killed by ${signal}` : `exited with code ${code}` };
}
