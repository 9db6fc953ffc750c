// A job's output file that never grows past its cap: when it would, the head is dropped and
// the tail kept, because the end of a log is where the failure is.
import { closeSync, openSync, readSync, writeSync, ftruncateSync, fstatSync } from 'node:fs';

export const TRUNCATION_MARK = '[… earlier output dropped to keep this log within its size cap …]\n';

export class CappedLog {
  private fd: number | null = null;
  private size = 0;

  constructor(
    private readonly path: string,
    private readonly capBytes: number,
  ) {}

  write(chunk: Buffer | string): void {
    const data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    if (data.length === 0) return;
    // Opened on first output: most jobs of a busy lane print nothing, and creating two empty
    // files per job would cost more than the job.
    if (this.fd === null) {
      this.fd = openSync(this.path, 'a+');
      this.size = fstatSync(this.fd).size;
    }
    if (data.length >= this.capBytes) {
      this.rewrite(Buffer.concat([Buffer.from(TRUNCATION_MARK), data.subarray(data.length - Math.floor(this.capBytes / 2))]));
      return;
    }
    writeSync(this.fd, data, 0, data.length, this.size);
    this.size += data.length;
    if (this.size > this.capBytes) this.compact();
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
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
