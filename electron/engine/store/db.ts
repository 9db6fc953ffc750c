// Opening lanes.db: refuse a newer schema before touching the file, then WAL and migrations.
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadMigrations, migrate, NewerDatabaseError } from './migrate.js';

export type Db = Database.Database;

/** What the WAL is cut back to after a checkpoint. */
export const WAL_KEEP_BYTES = 16 * 1_048_576;

export function openDatabase(dataDir: string, migrationsDir: string): Db {
  const file = join(dataDir, 'lanes.db');
  const migrations = loadMigrations(migrationsDir);
  const fresh = !existsSync(file);
  if (!fresh) {
    // Read-only first: a database from a newer Lanes must be left exactly as it was, and even
    // switching it to WAL would write to it.
    const peek = new Database(file, { readonly: true, fileMustExist: true });
    const version = peek.pragma('user_version', { simple: true }) as number;
    peek.close();
    if (version > migrations.length) throw new NewerDatabaseError(file, version, migrations.length);
  }
  const db = new Database(file);
  // Before the first table: freed pages can then be given back a step at a time (space.ts; an
  // older database is switched there, once it is small).
  if (fresh) db.pragma('auto_vacuum = INCREMENTAL');
  db.pragma('journal_mode = WAL');
  // After a checkpoint the WAL is cut back to this, so a burst of writes does not leave a large file.
  db.pragma(`journal_size_limit = ${WAL_KEEP_BYTES}`);
  // NORMAL in WAL survives a crashed process; only an OS crash can lose the last commits.
  // Writes a person made (enqueue, caps, lanes) go through `durably`, which forces a sync.
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  // Checkpoint less often than the default 1,000 pages: each job touches several index pages,
  // and fewer, larger checkpoints keep claim-and-complete near the raw SQLite rate.
  db.pragma('wal_autocheckpoint = 4000');
  db.pragma('foreign_keys = ON');
  migrate(db, migrations, file);
  return db;
}

/** Runs `fn` in a transaction that is synced to disk before it returns. */
export function durably<T>(db: Db, fn: () => T): T {
  db.pragma('synchronous = FULL');
  try {
    return db.transaction(fn).immediate();
  } finally {
    db.pragma('synchronous = NORMAL');
  }
}
