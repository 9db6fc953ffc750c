// Checks on the places a request names: a directory a job runs in. Done when the request arrives,
// so a job that can never start is refused with a clear word instead of failing later as
// "spawn ENOENT". (Whether a program can be found is the worker runtime's findProgram.)
import { isAbsolute } from 'node:path';
import { badRequest } from '../../../shared/errors.js';
import { isDirectory } from '../../job-control/find-program.js';

/** An absolute path to an existing directory, or a bad_request naming `field`. */
export function checkDirectory(path: string, field: string): void {
  if (!isAbsolute(path) || !isDirectory(path)) throw badRequest(`${field} must be an existing absolute directory; "${path}" is not`, field);
}
