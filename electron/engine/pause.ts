// "Pause all": a person holds all work for a while (or until they resume). Running jobs finish,
// nothing new starts, and the caps are untouched: it is shown as the reason the machine is quiet,
// not kept as a setting of any lane. It survives a restart of the engine, and ends by itself.
import type { Paused } from '../../shared/model.js';
import { durably, type Db } from './store/db.js';

export class Pause {
  private paused: Paused | null;
  private timer: NodeJS.Timeout | null = null;
  private readonly read;
  private readonly write;
  private readonly clear;

  constructor(
    private readonly db: Db,
    /** It began or ended (by request or by running out). */
    private readonly changed: (paused: Paused | null) => void,
    now = Date.now(),
  ) {
    this.read = db.prepare<[string], { value: number }>('SELECT value FROM store_flags WHERE name = ?');
    this.write = db.prepare('INSERT OR REPLACE INTO store_flags (name, value) VALUES (?, ?)');
    this.clear = db.prepare("DELETE FROM store_flags WHERE name IN ('paused_since', 'paused_until')");
    const since = this.read.get('paused_since')?.value;
    const until = this.read.get('paused_until')?.value;
    this.paused = since === undefined ? null : { since, until: until === undefined || until < 0 ? null : until };
    if (this.paused?.until !== null && this.paused !== null && this.paused.until <= now) this.end(false);
    this.arm(now);
  }

  get state(): Paused | null {
    return this.paused;
  }

  /** Holds all work for `forMs`, or until resumed (null). */
  pause(forMs: number | null, now = Date.now()): Paused {
    const paused = { since: this.paused?.since ?? now, until: forMs === null ? null : now + forMs };
    durably(this.db, () => {
      this.write.run('paused_since', paused.since);
      this.write.run('paused_until', paused.until ?? -1);
    });
    this.paused = paused;
    this.arm(now);
    this.changed(paused);
    return paused;
  }

  resume(): void {
    this.end(true);
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private end(announce: boolean): void {
    if (!this.paused) return;
    durably(this.db, () => this.clear.run());
    this.paused = null;
    this.stop();
    if (announce) this.changed(null);
  }

  /** A pause with an end resumes by itself then (a timer that does not keep the process alive). */
  private arm(now: number): void {
    this.stop();
    const until = this.paused?.until;
    if (until === undefined || until === null) return;
    // Timers take at most about 24.8 days; a week is well within.
    this.timer = setTimeout(() => this.end(true), Math.max(0, until - now));
    this.timer.unref();
  }
}
