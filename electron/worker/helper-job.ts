// One shell-lane job started by the worker's job starter (spawn-helper.ts) rather than forked by
// the worker: what the starter's subshell does, in order — enter the job's cgroup (its first act,
// so the job's first instruction runs there), go to its directory, take its variables, become
// its program (or `/bin/sh -c` its line) — and how the job is stopped and ended. Only where the
// job has a cgroup of its own: that is what holds everything it starts, the starter's subshells
// sharing the starter's process group. Every other case keeps the worker's own spawn (shell-job.ts).
import { readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { constants } from 'node:os';
import type { JobOutcome } from '../worker-protocol/protocol.js';
import { removeCgroup } from '../job-control/containment.js';
import { TIMEOUT_GRACE_MS } from '../job-control/process-group.js';
import type { JobLogs } from './job-logs.js';
import type { SpawnHelper } from './spawn-helper.js';

/** What the starter's subshell runs: a program with its words, or a command line for /bin/sh. */
export type HelperCommand = { words: readonly string[] } | { line: string };

export interface HelperJob {
  cgroup: string;
  cwd: string;
  /** Variables the job has on top of the engine's (the starter has those already). */
  exports: Record<string, string>;
  command: HelperCommand;
  timeoutMs: number | null;
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** A name sh can hold as a variable (one it cannot, it drops from what it passes on). */
export const shellName = (name: string) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name);
/** Names the shell reads itself: a job asking for one is left to the worker's own spawn. */
const SHELL_OWN = new Set(['IFS', 'PPID', 'OPTIND', 'OPTARG', 'PS1', 'PS2', 'PS4', 'PWD', 'OLDPWD', 'LINENO', 'CDPATH', 'ENV', 'SHLVL', 'HOME', 'MAIL', 'MAILPATH', 'HISTFILE']);
export const exportable = (name: string) => shellName(name) && !SHELL_OWN.has(name) && !name.startsWith('BASH') && !name.startsWith('__');

/**
 * The subshell's commands. The cgroup is entered by writing 0 (the writer itself) to its
 * cgroup.procs; if the group is gone (the job was cancelled before it began) it never runs.
 * `exec` of a word with no slash searches the job's PATH and hands the program the word as its
 * name; a file with no #! line is run by sh, as under `sh -c`.
 */
export function helperBody(job: HelperJob): string {
  const vars = Object.entries(job.exports).map(([k, v]) => `${k}=${quote(v)}`);
  const run = 'words' in job.command ? job.command.words.map(quote).join(' ') : `/bin/sh -c ${quote(job.command.line)}`;
  return [`{ echo 0 > ${quote(join(job.cgroup, 'cgroup.procs'))}; } 2>/dev/null || exit 126`, `cd -P -- ${quote(job.cwd)} || exit 126`, ...(vars.length > 0 ? [`export ${vars.join(' ')}`] : []), `exec ${run}`].join('; ');
}

/** Removes the group if nothing is in it; false while something is. */
function removeIfEmpty(dir: string): boolean {
  try {
    rmdirSync(dir);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

/** Sends `signal` to every process in the cgroup (TERM: there is no cgroup.signal, only cgroup.kill). */
function signalCgroup(dir: string, signal: 'SIGTERM' | 'SIGKILL'): void {
  if (signal === 'SIGKILL') {
    try {
      writeFileSync(join(dir, 'cgroup.kill'), '1');
    } catch {
      // Gone already.
    }
    return;
  }
  let procs = '';
  try {
    procs = readFileSync(join(dir, 'cgroup.procs'), 'latin1');
  } catch {
    return;
  }
  for (const pid of procs.split('\n').filter(Boolean).map(Number)) {
    try {
      process.kill(pid, signal);
    } catch {
      // Gone meanwhile.
    }
  }
}

/** Names of signals by number, for a status sh gives as 128 + the signal. */
const SIGNALS = new Map<number, NodeJS.Signals>(Object.entries(constants.signals).map(([name, n]) => [n, name as NodeJS.Signals]));

/**
 * The job's status as sh gives it: above 128 it died of signal status − 128, which is how sh
 * tells it (a program exiting with such a code by itself reads the same).
 */
export function statusOf(status: number): { code: number | null; signal: NodeJS.Signals | null } {
  const signal = status > 128 ? SIGNALS.get(status - 128) : undefined;
  return signal ? { code: null, signal } : { code: status, signal: null };
}

export interface HelperRun {
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; died: string | null; stopping: 'cancelled' | 'timed out' | null }>;
  cancel(graceMs: number): void;
}

/** Runs `job` through `helper`, its output to `logs` (closed when it is done). */
export function runThroughHelper(helper: SpawnHelper, job: HelperJob, logs: JobLogs): HelperRun {
  let stopping: 'cancelled' | 'timed out' | null = null;
  let over = false;
  const timers: NodeJS.Timeout[] = [];
  const stop = (why: 'cancelled' | 'timed out', graceMs: number) => {
    if (stopping || over) return;
    stopping = why;
    // Not begun yet: without its group it never will, entering it being its first act.
    if (removeIfEmpty(job.cgroup)) return;
    signalCgroup(job.cgroup, graceMs > 0 ? 'SIGTERM' : 'SIGKILL');
    if (graceMs > 0) timers.push(setTimeout(() => signalCgroup(job.cgroup, 'SIGKILL'), graceMs));
  };
  if (job.timeoutMs !== null) timers.push(setTimeout(() => stop('timed out', TIMEOUT_GRACE_MS), job.timeoutMs));
  const done = (async () => {
    const end = await helper.run(helperBody(job), { stdout: (d) => logs.stdout.write(d), stderr: (d) => logs.stderr.write(d) });
    over = true;
    for (const t of timers) clearTimeout(t);
    // What the job left running goes with it; what it wrote before it went is read after a second mark.
    if (!removeIfEmpty(job.cgroup)) {
      await removeCgroup(job.cgroup);
      if ('status' in end) await helper.flush();
    }
    if ('died' in end) await helper.closed(300);
    helper.release();
    logs.close();
    return 'died' in end ? { code: null, signal: null, died: end.died, stopping } : { ...statusOf(end.status), died: null, stopping };
  })();
  return { done, cancel: (graceMs) => stop('cancelled', graceMs) };
}

/** The outcome of a job whose starter died under it. */
export function starterDied(why: string): JobOutcome {
  return { state: 'failed', exitCode: null, error: `the worker's job starter (/bin/sh) ${why} while the job ran; the job was ended with it` };
}
