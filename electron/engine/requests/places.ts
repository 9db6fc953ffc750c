// Checks on the places a request names: a directory a job runs in. Done when the request arrives,
// so a job that can never start is refused with a clear word instead of failing later as
// "spawn ENOENT". (Whether a program can be found is the worker runtime's findProgram.)
import { statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
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
