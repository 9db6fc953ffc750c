// A full disk is a condition to ride out, not a crash: SQLite says SQLITE_FULL (or an I/O error
// on write), the file system ENOSPC. Whoever meets one keeps what it could not write and tries
// again once there is room.
import { LanesError } from '../../../shared/errors.js';

export function isDiskFull(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT' || (typeof code === 'string' && code.startsWith('SQLITE_IOERR_WRITE'));
}

/** What a request that would store something is told while the disk is full. */
export const diskFullError = (dataDir: string) =>
  new LanesError('insufficient_storage', `the disk holding ${dataDir} is full: Lanes takes no new work until there is room again (what is running carries on)`);
