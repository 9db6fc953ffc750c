// Group commit: what a person queued is on disk before they hear its id, but concurrent requests
// share one sync instead of taking turns for one each. A write commits at once (SQLite's WAL, not
// yet synced); the sync of the WAL file runs off the event loop, starting at the end of the turn,
// so every write of that turn is durable when it ends. A write that arrives while a sync is under
// way waits for the next one, which starts as soon as that ends and serves all such writes.
import { closeSync, fsync, openSync } from 'node:fs';

export class GroupSync {
  private fd: number | null = null;
  /** The sync under way. */
  private running: Promise<void> | null = null;
  /** The sync every write since `running` began waits for: it starts at the end of this turn, or when `running` ends. */
  private pending: Promise<void> | null = null;

  constructor(private readonly walPath: string) {}

  /** Resolves once everything committed before this call is on disk. */
  synced(): Promise<void> {
    this.pending ??= new Promise<void>((resolve, reject) => {
      const start = () => {
        this.pending = null;
        const run = this.sync().finally(() => {
          if (this.running === run) this.running = null;
        });
        this.running = run;
        run.then(resolve, reject);
      };
      if (this.running) this.running.then(start, start);
      else setImmediate(start);
    });
    return this.pending;
  }

  /** After the last sync under way (its callers are answered), lets go of the file. */
  async close(): Promise<void> {
    await Promise.allSettled([this.pending, this.running]);
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  protected sync(): Promise<void> {
    // Opened on first use: the WAL exists once the database has been written to.
    this.fd ??= openSync(this.walPath, 'r');
    const fd = this.fd;
    return new Promise((resolve, reject) => fsync(fd, (error) => (error ? reject(error) : resolve())));
  }
}
