// Group commit: what a person queued is on disk before they hear of it, but concurrent requests
// share one transaction and one sync instead of taking turns for one each. Writes wait in a queue;
// a round commits all of them in one transaction (SQLite's WAL, not yet synced), then syncs the
// WAL file off the event loop, and answers them all. Writes that arrive during a round's sync wait
// for the next round, which starts as soon as that sync ends: the busier it is, the more each
// round carries, and no write waits for more than the sync before it and its own.
import { closeSync, fsync, openSync } from 'node:fs';

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
    const round = this.sync().then(
      () => batch.forEach((w, i) => w.resolve(results[i])),
      (error: unknown) => batch.forEach((w) => w.reject(error)),
    );
    this.running = round.finally(() => {
      this.running = null;
      this.schedule();
    });
  }

  protected sync(): Promise<void> {
    // Opened on first use: the WAL exists once the database has been written to.
    this.fd ??= openSync(this.walPath, 'r');
    const fd = this.fd;
    return new Promise((resolve, reject) => fsync(fd, (error) => (error ? reject(error) : resolve())));
  }
}
