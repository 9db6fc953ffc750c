// Group commit: what a person queued is on disk before they hear of it, but concurrent requests
// share one transaction and one sync instead of taking turns for one each. Writes wait in a queue;
// a round commits all of them in one transaction (SQLite's WAL, not yet synced), then syncs the
// WAL file off the event loop, and answers them all. Writes that arrive during a round's sync wait
// for the next round, which starts as soon as that sync ends: the busier it is, the more each
// round carries, and no write waits for more than the sync before it and its own.
//
// A round of one write (adds one after another) syncs on the event loop while syncs are quick:
// there is nothing to overlap with, and the thread pool's two hops cost as much as the sync itself
// (sequential adds ran 15–25 % faster so, side by side). Once a sync takes longer than
// INLINE_SYNC_MS (a slow or busy disk), syncs go off the loop until they are quick again, so the
// engine never stops answering for a slow disk.
import { closeSync, fdatasync, fdatasyncSync, openSync } from 'node:fs';

/** The longest a sync may typically take to be done on the event loop. */
export const INLINE_SYNC_MS = 1;

/** Whether a round syncs on the event loop: it is alone, and syncs have been quick. */
export const syncInline = (writes: number, typicalMs: number) => writes === 1 && typicalMs < INLINE_SYNC_MS;

interface Waiting<C> {
  write: (context: C) => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export class GroupSync<C = void> {
  private fd: number | null = null;
  private queue: Waiting<C>[] = [];
  private scheduled = false;
  /** The round whose sync is under way. */
  private running: Promise<void> | null = null;
  /** How long syncs take, smoothed over the last few (starts as slow: the first syncs off the loop). */
  private typicalMs = INLINE_SYNC_MS;

  constructor(
    private readonly walPath: string,
    /** Runs a round's writes in one transaction (committed, not synced) and returns their results. */
    private readonly transact: (body: (context: C) => unknown[]) => unknown[],
  ) {}

  /** Runs `write` in the next round; resolves with its result once it is on disk. */
  commit<T>(write: (context: C) => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ write, resolve: resolve as (value: unknown) => void, reject });
      this.schedule();
    });
  }

  /** After the round under way (its writers are answered), lets go of the file. */
  async close(): Promise<void> {
    while (this.running || this.scheduled) await (this.running ?? new Promise((r) => setImmediate(r)));
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  private schedule(): void {
    if (this.scheduled || this.running || this.queue.length === 0) return;
    this.scheduled = true;
    setImmediate(() => this.round());
  }

  private round(): void {
    this.scheduled = false;
    const batch = this.queue.splice(0);
    let results: unknown[];
    try {
      results = this.transact((context) => batch.map((w) => w.write(context)));
    } catch (error) {
      // One transaction: none of them is stored (a full disk, say), and each writer hears why.
      for (const w of batch) w.reject(error);
      this.schedule();
      return;
    }
    const round = this.sync(batch.length).then(
      () => batch.forEach((w, i) => w.resolve(results[i])),
      (error: unknown) => batch.forEach((w) => w.reject(error)),
    );
    this.running = round.finally(() => {
      this.running = null;
      this.schedule();
    });
  }

  /** Syncs the WAL (its data and size: what a reader needs after a crash) for a round of `writes`. */
  protected sync(writes: number): Promise<void> {
    // Opened on first use: the WAL exists once the database has been written to.
    this.fd ??= openSync(this.walPath, 'r');
    const fd = this.fd;
    const t0 = performance.now();
    const took = () => (this.typicalMs = 0.75 * this.typicalMs + 0.25 * (performance.now() - t0));
    if (syncInline(writes, this.typicalMs)) {
      try {
        fdatasyncSync(fd);
        took();
        return Promise.resolve();
      } catch (error) {
        return Promise.reject(error);
      }
    }
    return new Promise((resolve, reject) =>
      fdatasync(fd, (error) => {
        took();
        if (error) reject(error);
        else resolve();
      }),
    );
  }
}
