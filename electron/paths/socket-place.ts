// Where the engine's socket goes. In the private data directory when its path fits in a socket
// address; otherwise in a directory the OS already keeps private for this user ($XDG_RUNTIME_DIR
// on Linux, the per-user $TMPDIR of macOS); otherwise in a fresh directory of its own with a name
// nobody can guess (mkdtemp), checked before use. Never at a name fixed in advance in a shared
// place: another user could make it first, with their own mode or as a link, and either refuse
// the engine a start or point its socket somewhere else. A squatter costs a new name, no more.
// The engine records where it listens in the data directory (daemon.json), where the CLI reads it.
import { lstatSync, mkdtempSync, rmdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { LanesError } from '../../shared/errors.js';
import { ancestorProblem, uid } from './private-dir.js';

const posix = process.platform !== 'win32';
const crypto = () => process.getBuiltinModule('node:crypto');

/**
 * A socket's path must fit in sun_path (104 bytes with its NUL on macOS, 108 on Linux), and one
 * that does not is silently cut short by the OS, which would put the socket somewhere else.
 */
export const SOCKET_PATH_MAX = 103;
/** The fresh directories' names: `lanes-` and six random characters (mkdtemp). */
const MADE = /^lanes-[A-Za-z0-9]{6}$/;

const fits = (path: string) => Buffer.byteLength(path) <= SOCKET_PATH_MAX;
const hashOf = (dataDir: string) => crypto().createHash('sha256').update(posix ? dataDir : dataDir.toLowerCase()).digest('hex').slice(0, 24);

/**
 * The socket's place when it is fixed by the data directory alone: inside it when the path fits
 * (Windows: a named pipe named after it). Null when the engine had to put it elsewhere, and says
 * where in daemon.json.
 */
export function fixedSocketPath(dataDir: string): string | null {
  if (!posix) return `\\\\.\\pipe\\lanes-${hashOf(dataDir)}`;
  const inside = join(dataDir, 'engine.sock');
  return fits(inside) ? inside : null;
}

/** Why `dir` may not hold the socket: a link, not a directory, another user's, or open to others (itself or above). */
export function socketDirProblem(dir: string): string | null {
  if (!posix) return null;
  if (!isAbsolute(dir)) return `${dir} is not an absolute path`;
  const st = lstatSync(dir, { throwIfNoEntry: false });
  if (!st) return `${dir} does not exist`;
  if (st.isSymbolicLink()) return `${dir} is a link`;
  if (!st.isDirectory()) return `${dir} is not a directory`;
  if (st.uid !== uid()) return `${dir} belongs to another user (uid ${st.uid})`;
  if ((st.mode & 0o077) !== 0) return `${dir} is open to other users (mode ${(st.mode & 0o777).toString(8)})`;
  return ancestorProblem(dir);
}

/** The per-user directory the OS keeps private, when there is one and it checks out. */
function runtimeDir(env: NodeJS.ProcessEnv): string | null {
  const dir = process.platform === 'linux' ? env.XDG_RUNTIME_DIR : process.platform === 'darwin' ? env.TMPDIR : undefined;
  if (!dir) return null;
  const trimmed = dir.length > 1 ? dir.replace(/\/+$/, '') : dir;
  return socketDirProblem(trimmed) === null ? trimmed : null;
}

export interface SocketPlace {
  path: string;
  /** A directory made for it alone, to remove when the engine stops; null when it is not ours to remove. */
  madeDir: string | null;
}

/** Where this start of the engine listens (see the top of this file). */
export function placeSocket(dataDir: string, env: NodeJS.ProcessEnv = process.env): SocketPlace {
  const fixed = fixedSocketPath(dataDir);
  if (fixed) return { path: fixed, madeDir: null };
  const runtime = runtimeDir(env);
  if (runtime !== null && fits(join(runtime, `lanes-${hashOf(dataDir)}.sock`))) return { path: join(runtime, `lanes-${hashOf(dataDir)}.sock`), madeDir: null };
  const made = mkdtempSync(join(tmpdir(), 'lanes-'));
  const path = join(made, 'engine.sock');
  // mkdtemp makes it 0700 with a name nobody could guess; checked all the same before use.
  const problem = socketDirProblem(made) ?? (fits(path) ? null : `${path} is too long for a socket (the temporary directory's path is long; set TMPDIR to a shorter one)`);
  if (problem) {
    rmdirSync(made);
    throw new LanesError('forbidden', `Lanes will not put its socket where ${problem}`);
  }
  return { path, madeDir: made };
}

/** Removes a directory placeSocket made, with the socket in it (a link or anything else there is left). */
export function removeSocketDir(socket: string): void {
  const dir = dirname(socket);
  if (!posix || !MADE.test(basename(dir)) || dirname(dir) !== tmpdir() || socketDirProblem(dir) !== null) return;
  rmSync(socket, { force: true });
  try {
    rmdirSync(dir);
  } catch {
    // Something else is in it: not ours to remove.
  }
}
