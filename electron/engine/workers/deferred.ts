// Records that could not be written because the disk is full (a finished job, a job given back),
// kept in order and tried again every couple of seconds until there is room. Meanwhile no worker
// is handed new work, since claiming it would need a write too.
import { isDiskFull } from '../store/disk-full.js';

const RETRY_MS = 2_000;

export class DeferredWrites {
  private readonly queue: { jobId: number; write: () => void }[] = [];
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly log: (line: string) => void,
    /** Every deferred write has gone through: the disk has room again. */
    private readonly cleared: () => void,
  ) {}

  get full(): boolean {
    return this.queue.length > 0;
  }

  /** Whether a write for this job is waiting (its record still says what it was before). */
  holds(jobId: number): boolean {
    return this.queue.some((d) => d.jobId === jobId);
  }

  /** Runs `write` now; if the disk is full, keeps it for later and returns false. */
  attempt(jobId: number, write: () => void): boolean {
    if (this.full) {
      this.keep(jobId, write);
      return false;
    }
    try {
      write();
      return true;
    } catch (error) {
      if (!isDiskFull(error)) throw error;
      this.log('the disk is full: holding what finishes until there is room, taking no new work');
      this.keep(jobId, write);
      return false;
    }
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private keep(jobId: number, write: () => void): void {
    this.queue.push({ jobId, write });
    this.timer ??= setTimeout(() => this.retry(), RETRY_MS);
  }

  private retry(): void {
    this.timer = null;
    while (this.queue.length > 0) {
      try {
        this.queue[0]!.write();
      } catch (error) {
        if (!isDiskFull(error)) this.log(`a held record could not be written: ${(error as Error).message}`);
        else {
          this.timer = setTimeout(() => this.retry(), RETRY_MS);
          return;
        }
      }
      this.queue.shift();
    }
    this.log('the disk has room again: carrying on');
    this.cleared();
  }
}
