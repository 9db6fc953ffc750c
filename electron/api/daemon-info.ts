// What a running engine says about itself in its data directory: `daemon.json`, where its window
// is served (so the next start can keep the same port) and where its socket is. No secret is
// written to disk: programs of the data directory's owner talk over the socket, whose directory's
// permissions are the authentication (docs/security.md); the window's token lives in the
// engine's memory only, new at every start.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writePrivateFile } from '../paths/private-dir.js';

export interface DaemonInfo {
  /** The window's port on 127.0.0.1. */
  port: number;
  pid: number;
  /** The window's address without any credential: `http://127.0.0.1:PORT/`. */
  url: string;
  startedAt: number;
  /** Where the engine's socket (or named pipe) is. */
  socket: string;
}

export const DAEMON_FILE = 'daemon.json';
/** Loaded when used: the CLI reads this module to find a socket, and needs no secret. */
const crypto = () => process.getBuiltinModule('node:crypto');
export const OPEN_PAGE_FILE = 'open.html';

/** 32 random bytes as hex: 256 bits, minted at every start, never written down. */
export const mintToken = (): string => crypto().randomBytes(32).toString('hex');

export function sameSecret(given: string, secret: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  // Constant time, so response timing does not reveal how much of a guess was right.
  return a.length === b.length && crypto().timingSafeEqual(a, b);
}

export function writeDaemonInfo(dataDir: string, info: DaemonInfo): void {
  writePrivateFile(join(dataDir, DAEMON_FILE), `${JSON.stringify(info, null, 2)}\n`);
}

export function readDaemonInfo(dataDir: string): DaemonInfo | null {
  try {
    const raw = JSON.parse(readFileSync(join(dataDir, DAEMON_FILE), 'utf8')) as Partial<DaemonInfo>;
    if (typeof raw.port !== 'number' || typeof raw.pid !== 'number' || typeof raw.socket !== 'string') return null;
    return {
      port: raw.port,
      pid: raw.pid,
      url: typeof raw.url === 'string' ? raw.url : `http://127.0.0.1:${raw.port}/`,
      startedAt: typeof raw.startedAt === 'number' ? raw.startedAt : 0,
      socket: raw.socket,
    };
  } catch {
    return null;
  }
}

/** Removes daemon.json only if it still names `pid`: a newer engine may have replaced it. */
export function removeDaemonInfo(dataDir: string, pid: number): void {
  if (readDaemonInfo(dataDir)?.pid !== pid) return;
  rmSync(join(dataDir, DAEMON_FILE), { force: true });
}

/**
 * A private page that forwards to the window, for handing to a browser: a URL on a command line is
 * visible to every local user (ps, /proc), a path to a 0600 file is not. It carries a code good
 * for one use within a minute, and the engine removes the page once the code is used.
 */
export function writeOpenPage(dataDir: string, url: string): string {
  const path = join(dataDir, OPEN_PAGE_FILE);
  const attr = url.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  writePrivateFile(
    path,
    `<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${attr}">` +
      `<title>Lanes</title><p><a href="${attr}">Open the Lanes window</a></p>\n`,
  );
  return path;
}

export function removeOpenPage(dataDir: string): void {
  rmSync(join(dataDir, OPEN_PAGE_FILE), { force: true });
}
