// Where a program would be found when a worker starts it: the engine checks a lane's worker
// command with this when the lane is added, and a worker checks a job's program before it starts
// it, so "cannot be found" is said in words rather than as ENOENT or a shell's exit code 127.
// Likewise the directory a job runs in.
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';

function runnable(path: string): boolean {
  try {
    // A name missing from most PATH folders is the usual case: answered without an error built for it.
    if (statSync(path, { throwIfNoEntry: false })?.isFile() !== true) return false;
    if (process.platform !== 'win32') accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Where `program` would be found by the engine's workers: as given when it names a path (relative
 * to `cwd`), else on PATH (with Windows' PATHEXT endings). Null when it cannot be found.
 */
export function findProgram(program: string, cwd: string, env: NodeJS.ProcessEnv = process.env): string | null {
  const endings = process.platform === 'win32' ? ['', ...(env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';')] : [''];
  const candidates = /[\\/]/.test(program)
    ? [resolve(cwd, program)]
    : (env.PATH ?? '').split(delimiter).filter(Boolean).map((dir) => join(dir, program));
  for (const base of candidates) for (const end of endings) if (runnable(base + end)) return base + end;
  return null;
}

/** An existing directory (following links, as a job's `cwd` is followed when it starts). */
export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
