// Giving the space of removed rows back to the disk. A database made by this version is in
// incremental auto-vacuum from its first page, so freed pages are returned a step at a time
// (`PRAGMA incremental_vacuum`) after each cleaning pass; the WAL is truncated back to
// WAL_KEEP_BYTES at each checkpoint (journal_size_limit, set in db.ts).
//
// A database made by an older Lanes is in auto_vacuum NONE, and SQLite switches only with a full
// VACUUM, which rewrites the file and holds the engine meanwhile. So the switch waits until
// retention has removed most of it: once its live pages are under SWITCH_BELOW_BYTES it is one
// VACUUM of a small file (a few tens of ms), once, at a cleaning pass.
import type { Db } from './db.js';

/** Pages one step returns; a step is a millisecond or two. */
export const VACUUM_STEP_PAGES = 512;
export const SWITCH_BELOW_BYTES = 16 * 1_048_576;

export class StoreSpace {
  constructor(private readonly db: Db) {}

  /** Whether freed pages are given back (the database is in incremental auto-vacuum). */
  get incremental(): boolean {
    return (this.db.pragma('auto_vacuum', { simple: true }) as number) === 2;
  }

  /** Pages free inside the file, waiting to be given back. */
  get freePages(): number {
    return this.db.pragma('freelist_count', { simple: true }) as number;
  }

  /** One step: some free pages given back; false when none are left (or the database cannot). */
  step(): boolean {
    if (!this.incremental) return false;
    if (this.freePages === 0) return false;
    this.db.pragma(`incremental_vacuum(${VACUUM_STEP_PAGES})`);
    return this.freePages > 0;
  }

  /** An older database, now small: switched to incremental auto-vacuum with one VACUUM. True if it was. */
  switchIfSmall(): boolean {
    if (this.incremental) return false;
    const pageSize = this.db.pragma('page_size', { simple: true }) as number;
    const live = (this.db.pragma('page_count', { simple: true }) as number) - this.freePages;
    if (live * pageSize > SWITCH_BELOW_BYTES) return false;
    this.db.pragma('auto_vacuum = INCREMENTAL');
    this.db.exec('VACUUM');
    return true;
  }

  /** The WAL's pages copied into the file, and the WAL cut back (journal_size_limit). */
  checkpoint(): void {
    this.db.pragma('wal_checkpoint(TRUNCATE)');
  }
}
