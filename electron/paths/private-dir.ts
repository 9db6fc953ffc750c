// The data directory holds what a job runs (its environment, where API keys live), its output,
// and the socket that lets a program run commands as this person. Like ssh and gpg with their
// key directories, Lanes refuses one that another user owns or can write to, makes a merely
// readable one private, and creates every file in it exclusively, without following links,
// readable by its owner alone. (Windows has no mode bits; its user profile folders are private.)
import { chmodSync, closeSync, constants, existsSync, fsyncSync, lstatSync, mkdirSync, openSync, realpathSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { LanesError } from '../../shared/errors.js';

const posix = process.platform !== 'win32';
/** Loaded when used: the CLI, which reads this module on every call, seldom needs it. */
const crypto = () => process.getBuiltinModule('node:crypto');
export const uid = (): number => process.getuid?.() ?? -1;

/** The umask the process had before the engine made it 077; null until then. */
let userMask: number | null = null;

/**
 * From here on every file and folder this process creates is its owner's alone, whoever creates
 * it: SQLite's journals and WAL files, Electron's own files in the data directory, anything a
 * library makes. Returns the umask it had before (the user's), which the engine's jobs run under.
 */
export function privateUmask(): number {
  if (!posix) return 0;
  const before = process.umask(0o077);
  userMask ??= before;
  return userMask;
}

/** Every directory above `dir` as written, and above where it really is once links are followed. */
function ancestors(dir: string): string[] {
  const above = (path: string) => {
    const list: string[] = [];
    for (let d = dirname(path); ; d = dirname(d)) {
      list.push(d);
      if (dirname(d) === d) return list;
    }
  };
  const lexical = above(resolve(dir));
  // Where the nearest one that exists really is: a link on the way is checked where it leads too.
  const nearest = existsSync(dir) ? dir : lexical.find((d) => existsSync(d));
  const real = nearest === undefined ? [] : nearest === dir ? above(realpathSync(dir)) : [realpathSync(nearest), ...above(realpathSync(nearest))];
  // A link itself is checked where it lies (its parent) and where it leads (the real chain).
  const link = (d: string) => lstatSync(d, { throwIfNoEntry: false })?.isSymbolicLink() === true;
  return [...new Set([...lexical.filter((d) => !link(d)), ...real])].filter((d) => existsSync(d));
}

/**
 * Why another user could swap `dir` out from under Lanes, as ssh's StrictModes asks it: a
 * directory above it that is not root's or this user's, or that group or others may write to
 * without the sticky bit (in a sticky one, like /tmp, only an entry's owner may rename it).
 */
export function ancestorProblem(dir: string): string | null {
  if (!posix) return null;
  for (const d of ancestors(dir)) {
    const st = statSync(d);
    if (st.uid !== 0 && st.uid !== uid()) {
      return `${d}, above ${dir}, belongs to another user (uid ${st.uid}), who could swap it for their own: use a directory elsewhere (--data-dir, LANES_DATA_DIR), or give it to root or yourself: sudo chown "$USER" "${d}"`;
    }
    if ((st.mode & 0o022) !== 0 && (st.mode & 0o1000) === 0) {
      return `${d}, above ${dir}, can be written by other users (mode ${(st.mode & 0o7777).toString(8)}) and is not sticky, so they could swap ${dir} for their own: fix it with: chmod go-w "${d}" (or use a directory elsewhere)`;
    }
  }
  return null;
}

/** Why `dir` cannot hold Lanes' data, with how to fix it; null when it is fine as it is. */
export function dirProblem(dir: string): string | null {
  if (!posix) return null;
  const st = statSync(dir);
  if (!st.isDirectory()) return `${dir} is not a directory`;
  if (st.uid !== uid()) return `${dir} belongs to another user (uid ${st.uid}): use a directory of your own (--data-dir, LANES_DATA_DIR), or make it yours with: sudo chown "$USER" "${dir}"`;
  if ((st.mode & 0o022) !== 0) return `${dir} can be written by other users (mode ${(st.mode & 0o777).toString(8)}), who could then run commands as you: make it private with: chmod 700 "${dir}"`;
  return ancestorProblem(dir);
}

/**
 * Makes `dir` ready to hold Lanes' data: created private if missing; refused (with the fix) if
 * another user owns it or can write to it; made private (and said so) if others can only read it.
 */
export function preparePrivateDir(dir: string, log: (line: string) => void): void {
  // Before anything is made: a refused place is left as it was.
  const above = ancestorProblem(dir);
  if (above) throw new LanesError('forbidden', `Lanes will not use ${above}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const problem = dirProblem(dir);
  if (problem) throw new LanesError('forbidden', `Lanes will not use ${problem}`);
  if (posix && (statSync(dir).mode & 0o077) !== 0) {
    chmodSync(dir, 0o700);
    log(`made ${dir} private (mode 700): it holds your jobs' commands, environment and output`);
  }
}

/** A directory inside the private one, private too. */
export function privateSubdir(dir: string): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (posix && lstatSync(dir).isSymbolicLink()) throw new LanesError('forbidden', `${dir} is a link; Lanes makes its own folders`);
  return dir;
}

const EXCLUSIVE = constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | (constants.O_NOFOLLOW ?? 0);

/**
 * Writes `text` to `path` whole or not at all: into a new file made exclusively (never one that
 * was there, never through a link) and renamed over the old one, which replaces a link rather
 * than writing where it points.
 */
export function writePrivateFile(path: string, text: string): void {
  const tmp = `${path}.${crypto().randomBytes(6).toString('hex')}.tmp`;
  const fd = openSync(tmp, EXCLUSIVE, 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(tmp, path);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
}

/** For a file SQLite or another library creates: readable by its owner alone. */
export function makePrivate(path: string): void {
  try {
    if (posix) chmodSync(path, 0o600);
  } catch {
    // Not there (yet): nothing to protect.
  }
}

/** Flags for appending to a file that may exist, never through a link (job logs). */
export const APPEND_NO_FOLLOW = constants.O_CREAT | constants.O_RDWR | constants.O_APPEND | (constants.O_NOFOLLOW ?? 0);
