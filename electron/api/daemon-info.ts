// The two files through which a CLI finds the running engine: `daemon.json` (where it listens)
// and `token` (the secret every API request must carry). Both live in the data directory, so
// whoever can read that directory — the person who owns it — can talk to their engine, and no
// one else can (BOINC's gui_rpc_auth.cfg works the same way).
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export interface DaemonInfo {
  port: number;
  pid: number;
  /** The window's address without the token: `http://127.0.0.1:PORT/`. */
  url: string;
  startedAt: number;
}

export const DAEMON_FILE = 'daemon.json';
export const TOKEN_FILE = 'token';
export const OPEN_PAGE_FILE = 'open.html';
/** 32 random bytes as hex: 256 bits, well above the 128 the API needs. */
const TOKEN_SHAPE = /^[0-9a-f]{64}$/;

/** Write via a temporary file and rename, so a reader never sees half a file. */
function writeAtomic(path: string, text: string): void {
  const tmp = `${path}.${process.pid}.tmp`;
  const fd = openSync(tmp, 'w', 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
}

/**
 * The API token, reused across restarts when the existing file is sound, so a CLI script or an
 * open window keeps working after the engine restarts. A file that is malformed, not ours, or
 * readable by others is replaced with a fresh token: a secret others could read is no secret.
 */
export function ensureToken(dataDir: string): string {
  const path = join(dataDir, TOKEN_FILE);
  try {
    const st = statSync(path);
    const privateToUs =
      process.platform === 'win32' ||
      ((st.mode & 0o077) === 0 && (process.getuid === undefined || st.uid === process.getuid()));
    const text = readFileSync(path, 'utf8').trim();
    if (st.isFile() && privateToUs && TOKEN_SHAPE.test(text)) return text;
  } catch {
    // Missing or unreadable: write a new one below.
  }
  const token = randomBytes(32).toString('hex');
  writeAtomic(path, `${token}\n`);
  return token;
}

export function readToken(dataDir: string): string | null {
  try {
    const text = readFileSync(join(dataDir, TOKEN_FILE), 'utf8').trim();
    return TOKEN_SHAPE.test(text) ? text : null;
  } catch {
    return null;
  }
}

export function writeDaemonInfo(dataDir: string, info: DaemonInfo): void {
  writeAtomic(join(dataDir, DAEMON_FILE), `${JSON.stringify(info, null, 2)}\n`);
}

export function readDaemonInfo(dataDir: string): DaemonInfo | null {
  try {
    const raw = JSON.parse(readFileSync(join(dataDir, DAEMON_FILE), 'utf8')) as Partial<DaemonInfo>;
    if (typeof raw.port !== 'number' || typeof raw.pid !== 'number') return null;
    return {
      port: raw.port,
      pid: raw.pid,
      url: typeof raw.url === 'string' ? raw.url : `http://127.0.0.1:${raw.port}/`,
      startedAt: typeof raw.startedAt === 'number' ? raw.startedAt : 0,
    };
  } catch {
    return null;
  }
}

/**
 * A private page that forwards to the window, for handing to a browser: a URL with the token on
 * a command line is visible to every local user (ps, /proc), a path to a 0600 file is not. This
 * is how Jupyter opens its browser too.
 */
export function writeOpenPage(dataDir: string, url: string): string {
  const path = join(dataDir, OPEN_PAGE_FILE);
  const attr = url.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  writeAtomic(
    path,
    `<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${attr}">` +
      `<title>Lanes</title><p><a href="${attr}">Open the Lanes window</a></p>\n`,
  );
  return path;
}

/** Removes daemon.json only if it still names `pid`: a newer engine may have replaced it. */
export function removeDaemonInfo(dataDir: string, pid: number): void {
  if (readDaemonInfo(dataDir)?.pid !== pid) return;
  rmSync(join(dataDir, DAEMON_FILE), { force: true });
}

/** Whether a process with this id exists (EPERM: it exists but belongs to someone else). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
