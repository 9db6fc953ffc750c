// Checks on the places a request names: a directory a job runs in, a program a lane's worker
// command starts. Done when the request arrives, so a job that can never start is refused with a
// clear word instead of failing later as "spawn ENOENT".
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { badRequest } from '../../../shared/errors.js';

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** An absolute path to an existing directory, or a bad_request naming `field`. */
export function checkDirectory(path: string, field: string): void {
  if (!isAbsolute(path) || !isDirectory(path)) throw badRequest(`${field} must be an existing absolute directory; "${path}" is not`, field);
}

function runnable(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
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
