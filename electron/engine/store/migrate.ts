// The schema is the numbered SQL files in migrations/, applied in order, each in its own
// transaction; PRAGMA user_version counts how many have been applied.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

const FILE = /^(\d{4})-([a-z0-9-]+)\.sql$/;

export function loadMigrations(dir: string): Migration[] {
  const migrations = readdirSync(dir)
    .map((file) => ({ file, m: FILE.exec(file) }))
    .filter((x): x is { file: string; m: RegExpExecArray } => x.m !== null)
    .map(({ file, m }) => ({ version: Number(m[1]), name: m[2]!, sql: readFileSync(join(dir, file), 'utf8') }))
    .sort((a, b) => a.version - b.version);
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`migrations must be numbered 0001, 0002, … without gaps; found ${m.version} at position ${i + 1}`);
  });
  return migrations;
}

export class NewerDatabaseError extends Error {
  constructor(file: string, found: number, known: number) {
    super(
      `${file} was written by a newer Lanes (schema ${found}; this version knows ${known}). ` +
        'It was left untouched — update Lanes to open it.',
    );
    this.name = 'NewerDatabaseError';
  }
}

/** Applies what is missing, up to `upTo` (tests stop early to build old databases). */
export function migrate(db: Database.Database, migrations: Migration[], file: string, upTo = migrations.length): number {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > migrations.length) throw new NewerDatabaseError(file, current, migrations.length);
  // Rebuilding a table (0003) needs foreign keys off; the pragma is a no-op inside a transaction.
  db.pragma('foreign_keys = OFF');
  try {
    for (const m of migrations.slice(current, upTo)) {
      db.transaction(() => {
        db.exec(m.sql);
        const broken = db.pragma('foreign_key_check') as unknown[];
        if (broken.length > 0) throw new Error(`migration ${m.version}-${m.name} broke ${broken.length} foreign keys`);
        db.pragma(`user_version = ${m.version}`);
      }).immediate();
    }
  } finally {
    db.pragma('foreign_keys = ON');
  }
  return db.pragma('user_version', { simple: true }) as number;
}
