// A job's output file that never grows past its cap: when it would, the head is dropped and
// the tail kept, because the end of a log is where the failure is. It is opened without
// following links, readable by its owner alone, and a write that fails (a full disk) stops the
// log with a mark instead of failing the job or the worker.
import { closeSync, constants, mkdirSync, openSync, readSync, rmSync, writeSync, ftruncateSync, fstatSync } from 'node:fs';
import { dirname } from 'node:path';
import { APPEND_NO_FOLLOW } from '../paths/private-dir.js';

export const TRUNCATION_MARK = '[… earlier output dropped to keep this log within its size cap …]\n';

export const STOPPED_MARK = (why: string) => `\n[… output after this point was not kept: ${why} …]\n`;


export class CappedLog {
  private fd: number | null = null;
  private size = 0;
  /** Set once writing failed: nothing more is tried. */
  private stopped = false;

  constructor(
    private readonly path: string,
    private readonly capBytes: number,
  ) {}

  write(chunk: Buffer | string): void {
    const data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    if (data.length === 0 || this.stopped) return;
    try {
      this.append(data);
    } catch (error) {
      this.stop(error as NodeJS.ErrnoException);
    }
  }

  private append(data: Buffer): void {
    // Opened on first output: most jobs of a busy lane print nothing, and creating two empty
    // files per job would cost more than the job.
    if (this.fd === null) {
      this.fd = this.open();
      this.size = fstatSync(this.fd).size;
    }
    if (data.length >= this.capBytes) {
      this.rewrite(Buffer.concat([Buffer.from(TRUNCATION_MARK), data.subarray(data.length - Math.floor(this.capBytes / 2))]));
      return;
    }
    const written = writeSync(this.fd, data, 0, data.length, this.size);
    this.size += written;
    // A short write is what a disk with a few bytes left gives; the next one would fail.
    if (written < data.length) throw Object.assign(new Error('short write'), { code: 'ENOSPC' });
    if (this.size > this.capBytes) this.compact();
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  /**
   * The log file, never through a link: one found in its place is removed, not followed. Its
   * folder (a thousand jobs' logs, engine/retention/log-files.ts) is made by the first job that
   * writes there, private like the data directory; cleaning removes a folder once it is empty.
   */
  private open(): number {
    try {
      return openSync(this.path, APPEND_NO_FOLLOW, 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
        return openSync(this.path, APPEND_NO_FOLLOW, 0o600);
      }
      if ((error as NodeJS.ErrnoException).code !== 'ELOOP') throw error;
      rmSync(this.path);
      return openSync(this.path, APPEND_NO_FOLLOW, 0o600);
    }
  }

  /**
   * Writing failed: end the log with a mark and write no more. On a full disk there is no room to
   * append it, so it goes over the log's last bytes instead: space the file already holds, which
   * no other process can take meanwhile (freeing room first and then writing into it could lose
   * the race to the engine's own writes, and leave an empty log).
   */
  private stop(error: NodeJS.ErrnoException): void {
    this.stopped = true;
    if (this.fd === null) return;
    const why = error.code === 'ENOSPC' ? 'the disk is full' : error.code === 'ELOOP' ? 'the log is a link, which Lanes does not follow' : (error.code ?? error.message);
    const mark = Buffer.from(STOPPED_MARK(why));
    try {
      if (writeSync(this.fd, mark) === mark.length) return;
    } catch {
      // No room to append: over the last bytes, below.
    }
    // Through a descriptor of its own: on Linux a write through the append-only one lands at the end whatever the offset.
    let fd: number | null = null;
    try {
      fd = openSync(this.path, constants.O_WRONLY | constants.O_NOFOLLOW);
      const at = Math.max(0, this.size - mark.length);
      if (writeSync(fd, mark, 0, mark.length, at) === mark.length) ftruncateSync(fd, at + mark.length);
    } catch {
      // Not even the mark fits; the job's record still says how it ended.
    } finally {
      if (fd !== null) closeSync(fd);
    }
  }

  /** Keeps the newest half, so compaction happens once per cap/2 bytes, not on every write. */
  private compact(): void {
    const keep = Math.floor(this.capBytes / 2);
    const tail = Buffer.alloc(keep);
    readSync(this.fd!, tail, 0, keep, this.size - keep);
    // Start the kept part at a line boundary when one is near, so no line is cut in half.
    const nl = tail.indexOf(10);
    const from = nl >= 0 && nl < 4096 ? nl + 1 : 0;
    this.rewrite(Buffer.concat([Buffer.from(TRUNCATION_MARK), tail.subarray(from)]));
  }

  private rewrite(content: Buffer): void {
    ftruncateSync(this.fd!, 0);
    writeSync(this.fd!, content, 0, content.length, 0);
    this.size = content.length;
  }
}
