// Where jobs' logs live in the data directory, and removing them. Each job's files go in a folder
// of a thousand ids — logs/<id ÷ 1000>/<id>.log — so no folder ever holds more than a few
// thousand entries (a flat logs/ held two files per job: millions after a year), and the logs of
// the oldest jobs are the oldest folders. Logs an older Lanes wrote flat in logs/ are still read
// and removed with their jobs.
import { lstatSync, opendirSync, rmSync } from 'node:fs';
import { readdir, rm, rmdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { LogPaths } from '../../job-control/log-paths.js';

export const SHARD_IDS = 1000;
// <id>.log, .stdout.log, .stderr.log, .logs (joined) and .logs.part (a join under way).
const LOG_FILE = /^(\d+)\.(?:(?:stdout\.|stderr\.)?log|logs(?:\.part)?)$/;
const SHARD = /^\d+$/;

const files = (base: string): LogPaths => ({ stdoutPath: `${base}.stdout.log`, stderrPath: `${base}.stderr.log`, allPath: `${base}.log`, joinedPath: `${base}.logs` });
const exists = (path: string) => lstatSync(path, { throwIfNoEntry: false }) !== undefined;

/** One log file found: whose it is and how big. */
export interface LogFile {
  id: number;
  path: string;
  bytes: number;
}

export class LogFiles {
  readonly dir: string;
  /** Folders looked at in this run: one lstat per thousand jobs, not one per job. */
  private readonly checked = new Set<number>();
  /** Whether logs/ still holds files an older Lanes wrote flat. */
  private legacy: boolean;

  constructor(dataDir: string) {
    this.dir = join(dataDir, 'logs');
    this.legacy = hasFlatLogs(this.dir);
  }

  /** Where a job writes its logs; the worker makes the folder when the job first writes (capped-log.ts). */
  paths(id: number): LogPaths {
    const shard = Math.floor(id / SHARD_IDS);
    const folder = join(this.dir, String(shard));
    if (!this.checked.has(shard)) {
      // A folder planted as a link would take the job's output elsewhere (O_NOFOLLOW guards only
      // the file's own name): the link is removed, never followed, and the worker makes the folder.
      if (lstatSync(folder, { throwIfNoEntry: false })?.isSymbolicLink()) rmSync(folder);
      this.checked.add(shard);
    }
    const at = files(join(folder, String(id)));
    // A job an older Lanes ran keeps its flat files until it is cleaned.
    if (this.legacy && !exists(at.stdoutPath) && !exists(at.stderrPath) && !exists(at.joinedPath)) {
      const flat = files(join(this.dir, String(id)));
      if (exists(flat.stdoutPath) || exists(flat.stderrPath)) return flat;
    }
    return at;
  }

  /** Removes the logs of these jobs, folder by folder; an emptied folder goes too. Off the event loop (fs.promises). */
  async remove(ids: readonly number[]): Promise<number> {
    const byShard = new Map<number, Set<number>>();
    for (const id of ids) {
      const shard = Math.floor(id / SHARD_IDS);
      let set = byShard.get(shard);
      if (!set) byShard.set(shard, (set = new Set()));
      set.add(id);
    }
    let removed = 0;
    for (const [shard, set] of byShard) {
      const folder = join(this.dir, String(shard));
      const names = await readdir(folder).catch(() => [] as string[]);
      let left = names.length;
      for (const name of names) {
        const m = LOG_FILE.exec(name);
        if (!m || !set.has(Number(m[1]))) continue;
        await rm(join(folder, name), { force: true });
        removed++;
        left--;
      }
      if (left === 0 && names.length > 0) await rmdir(folder).catch(() => undefined);
    }
    if (this.legacy) {
      for (const id of ids) for (const p of Object.values(files(join(this.dir, String(id))))) await rm(p, { force: true });
    }
    return removed;
  }

  /**
   * Every log file, oldest job first, with its size: for the bound on all logs together. The
   * folders are read one at a time, through fs.promises, so a large logs/ is measured without
   * holding the event loop.
   */
  async list(): Promise<LogFile[]> {
    const shards = (await readdir(this.dir).catch(() => [] as string[])).filter((n) => SHARD.test(n)).map(Number).sort((a, b) => a - b);
    const found: LogFile[] = [];
    for (const shard of shards) {
      const folder = join(this.dir, String(shard));
      for (const name of await readdir(folder).catch(() => [] as string[])) {
        const m = LOG_FILE.exec(name);
        if (!m) continue;
        const path = join(folder, name);
        const s = await stat(path).catch(() => null);
        if (s) found.push({ id: Number(m[1]), path, bytes: s.blocks !== undefined ? s.blocks * 512 : s.size });
      }
    }
    found.sort((a, b) => a.id - b.id);
    return found;
  }

  /** Folders that are empty (their jobs all cleaned by log trimming): removed. */
  async tidy(): Promise<void> {
    for (const name of await readdir(this.dir).catch(() => [] as string[])) {
      if (!SHARD.test(name)) continue;
      const folder = join(this.dir, name);
      // A job that writes here later makes it again.
      if ((await readdir(folder).catch(() => ['?'])).length === 0) await rmdir(folder).catch(() => undefined);
    }
  }
}

/** Whether logs/ holds a flat log file: looked for among its first entries only. */
function hasFlatLogs(dir: string): boolean {
  let d;
  try {
    d = opendirSync(dir);
  } catch {
    return false;
  }
  try {
    for (let i = 0; i < 64; i++) {
      const e = d.readSync();
      if (!e) return false;
      if (e.isFile() && LOG_FILE.test(e.name)) return true;
    }
    return false;
  } finally {
    d.closeSync();
  }
}
