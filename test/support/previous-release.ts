// A data directory as the previous release (schema 13, before migration 0014) left it after its
// cleaning had run and been killed: a few jobs kept, newer ones only in compact records, newer
// still only in the log files a killed cleaning left behind — and the dependents it let wait for
// ever. Built from the old schema itself (migrate stops early), with the rows its statements wrote.
import Database from 'better-sqlite3';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { migrationsDir } from '../../electron/paths/app-files.js';
import { loadMigrations, migrate } from '../../electron/engine/store/migrate.js';

const SPEC = '{"kind":"argv","argv":["true"]}';

/** A log file as a worker leaves it, in the folder of its thousand. */
export function writeLogFile(dataDir: string, id: number, text: string, ext = 'stdout.log'): string {
  const folder = join(dataDir, 'logs', String(Math.floor(id / 1000)));
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, `${id}.${ext}`), text);
  return join(folder, `${id}.${ext}`);
}

/**
 * Jobs 1–5: 1 failed; 2 a dependent of 1 retried anyway (queued, waiting for ever); 3 after 2; 4
 * waiting for a failed job already cleaned (its link went with it); 5 queued. A compact record of
 * job 40; log files of jobs 57 and 58, whose rows went. The highest id it ever gave: 58.
 */
export function previousRelease(dataDir: string): { highestId: number } {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'lanes.db');
  const old = new Database(file);
  old.pragma('journal_mode = WAL');
  migrate(old, loadMigrations(migrationsDir), file, 13);
  const insert = old.prepare("INSERT INTO jobs (lane, spec, command, state, created_at, finished_at, deps_left) VALUES ('worker', ?, 'true', ?, 1, ?, ?)");
  insert.run(SPEC, 'failed', 5, 0);
  insert.run(SPEC, 'queued', null, 1);
  insert.run(SPEC, 'queued', null, 1);
  insert.run(SPEC, 'queued', null, 1);
  insert.run(SPEC, 'queued', null, 0);
  old.prepare('INSERT INTO job_deps (after, job) VALUES (1, 2), (2, 3)').run();
  old.prepare("INSERT INTO cleaned_jobs (id, lane, state, exit_code, finished_at, cleaned_at) VALUES (40, 'worker', 'succeeded', 0, 3, 4)").run();
  old.close();
  writeLogFile(dataDir, 57, 'OLD-OUT-57\n');
  writeLogFile(dataDir, 58, 'OLD\n', 'logs');
  return { highestId: 58 };
}

/**
 * A store as the release before migration 0019 left it (schema 18), when blocked was read from
 * the error's words: 1 ran and failed (exit 3); 2 never ran for 1 and 3 never ran for 2, in the
 * words that release wrote; 4 and 5 failed in a worker's own words that its GLOB took for blocked
 * too ("job 3: upload failed", and "job 9 failed" from a job that ran after 1, not 9).
 */
export function releaseBeforeBlockedBy(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'lanes.db');
  const old = new Database(file);
  old.pragma('journal_mode = WAL');
  migrate(old, loadMigrations(migrationsDir), file, 18);
  const insert = old.prepare("INSERT INTO jobs (id, lane, spec, command, state, attempts, created_at, started_at, finished_at, exit_code, error) VALUES (?, 'worker', ?, 'true', 'failed', ?, 1, ?, 5, ?, ?)");
  insert.run(1, SPEC, 1, 2, 3, null);
  insert.run(2, SPEC, 0, null, null, 'job 1 failed');
  insert.run(3, SPEC, 0, null, null, 'job 2 failed');
  insert.run(4, SPEC, 1, 2, null, 'job 3: upload failed');
  insert.run(5, SPEC, 1, 2, null, 'job 9 failed');
  old.prepare('INSERT INTO job_deps (after, job) VALUES (1, 2), (2, 3), (1, 5)').run();
  old.close();
}
