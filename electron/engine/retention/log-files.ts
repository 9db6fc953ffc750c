// Where jobs' logs live in the data directory, and removing them. Each job's files go in a folder
// of a thousand ids — logs/<id ÷ 1000>/<id>.log — so no folder ever holds more than a few
// thousand entries (a flat logs/ held two files per job: millions after a year), and the logs of
// the oldest jobs are the oldest folders. Logs an older Lanes wrote flat in logs/ are still read
// and removed with their jobs. A file is only ever removed for the job whose id it bears: ids are
// never handed out twice (store/job-ids.ts), so that job owned it.
import { lstatSync, opendirSync, readdirSync, rmSync } from 'node:fs';
import { lstat, readdir, rm, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { LogPaths } from '../../job-control/log-paths.js';
import { SHARED_ID_MIN, slotOfId } from '../store/job-ids.js';

export const SHARD_IDS = 1000;
// <id>.log, .stdout.log, .stderr.log, .logs (joined) and .logs.part (a join under way).
const LOG_FILE = /^(\d+)\.(?:(?:stdout\.|stderr\.)?log|logs(?:\.part)?)$/;
const SHARD = /^\d+$/;
/** The highest local id a log file's name is believed for (store/job-ids.ts keeps them below the shared range). */
const LOCAL_ID_TRUSTED = 1e12;

const files = (base: string): LogPaths => ({ stdoutPath: `${base}.stdout.log`, stderrPath: `${base}.stderr.log`, allPath: `${base}.log`, joinedPath: `${base}.logs` });
const exists = (path: string) => lstatSync(path, { throwIfNoEntry: false }) !== undefined;
/**
 * A folder's names, only when it is a folder and not a link: a link at logs/ or at a shard would
 * have every step (listing, measuring, trimming, cleaning) look at and remove files elsewhere.
 */
async function namesIn(folder: string): Promise<string[]> {
  if (!(await lstat(folder).catch(() => null))?.isDirectory()) return [];
  return readdir(folder).catch(() => [] as string[]);
}
function namesInSync(folder: string): string[] {
  if (!lstatSync(folder, { throwIfNoEntry: false })?.isDirectory()) return [];
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}

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
      const names = await namesIn(folder);
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
      // rm removes a link itself, never what it points to.
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
    const shards = (await namesIn(this.dir)).filter((n) => SHARD.test(n)).map(Number).sort((a, b) => a - b);
    const found: LogFile[] = [];
    for (const shard of shards) {
      const folder = join(this.dir, String(shard));
      for (const name of await namesIn(folder)) {
        const m = LOG_FILE.exec(name);
        if (!m) continue;
        const path = join(folder, name);
        // The entry itself: a link counts as the few bytes it is, and its target is never looked at.
        const s = await lstat(path).catch(() => null);
        if (s) found.push({ id: Number(m[1]), path, bytes: s.blocks !== undefined ? s.blocks * 512 : s.size });
      }
    }
    found.sort((a, b) => a.id - b.id);
    return found;
  }

  /**
   * The highest job id any log file names: of local jobs, and of each shared lane's slot. Read at
   * open, so the next id is above them (store/job-ids.ts); only the highest folder of each range
   * is read (and logs/ itself, for an older Lanes' flat files).
   */
  highestIds(): { local: number; shared: Map<number, number> } {
    const top = { local: 0, shared: new Map<number, number>() };
    // A name is a file in the data directory, not a promise: a local id past LOCAL_ID_TRUSTED (a
    // million years of jobs) or one beyond a safe integer is no job's, and does not move the count.
    const note = (id: number) => {
      if (!Number.isSafeInteger(id)) return;
      if (id < SHARED_ID_MIN) top.local = id <= LOCAL_ID_TRUSTED ? Math.max(top.local, id) : top.local;
      else top.shared.set(slotOfId(id), Math.max(top.shared.get(slotOfId(id)) ?? 0, id));
    };
    const names = namesInSync;
    const highestShard = new Map<number, number>();
    for (const name of names(this.dir)) {
      if (SHARD.test(name)) {
        const shard = Number(name);
        if (shard * SHARD_IDS > LOCAL_ID_TRUSTED && shard * SHARD_IDS < SHARED_ID_MIN) continue;
        const range = shard * SHARD_IDS < SHARED_ID_MIN ? -1 : slotOfId(shard * SHARD_IDS);
        highestShard.set(range, Math.max(highestShard.get(range) ?? -1, shard));
      } else if (this.legacy) {
        const m = LOG_FILE.exec(name);
        if (m) note(Number(m[1]));
      }
    }
    for (const shard of highestShard.values()) {
      for (const name of names(join(this.dir, String(shard)))) {
        const m = LOG_FILE.exec(name);
        if (m) note(Number(m[1]));
      }
    }
    return top;
  }

  /**
   * Removes the files of local jobs that are gone: those `kept` does not hold (asked a batch of
   * ids at a time), from `files` (as list() gave them). Shared lanes' files are left to their
   * lane, which removes them once their tail is in Redis. How many files went.
   */
  async removeOrphans(files: readonly LogFile[], kept: (ids: readonly number[]) => ReadonlySet<number>): Promise<number> {
    const ids = [...new Set(files.map((f) => f.id).filter((id) => id < SHARED_ID_MIN))];
    const gone: number[] = [];
    for (let i = 0; i < ids.length; i += 2_000) {
      const some = ids.slice(i, i + 2_000);
      const have = kept(some);
      for (const id of some) if (!have.has(id)) gone.push(id);
    }
    return gone.length === 0 ? 0 : this.remove(gone);
  }

  /** Folders that are empty (their jobs all cleaned by log trimming): removed. */
  async tidy(): Promise<void> {
    for (const name of await namesIn(this.dir)) {
      if (!SHARD.test(name)) continue;
      const folder = join(this.dir, name);
      if (!(await lstat(folder).catch(() => null))?.isDirectory()) continue;
      // A job that writes here later makes it again.
      if ((await readdir(folder).catch(() => ['?'])).length === 0) await rmdir(folder).catch(() => undefined);
    }
  }
}

/** Whether logs/ holds a flat log file: looked for among its first entries only. */
function hasFlatLogs(dir: string): boolean {
  let d;
  if (!lstatSync(dir, { throwIfNoEntry: false })?.isDirectory()) return false;
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
