// The schema's history on real SQLite files, and one engine per data directory.
import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrationsDir } from '../../electron/paths/app-files.js';
import { loadMigrations, migrate } from '../../electron/engine/store/migrate.js';
import { openDatabase } from '../../electron/engine/store/db.js';
import { startEngine, tempDir } from '../support/engine.js';

let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempDir()));
afterEach(() => cleanup());

const migrations = loadMigrations(migrationsDir);

describe('migrations', () => {
  it('a fresh install runs the whole history and ends at cap 1 for cpu, 0 for ml', () => {
    const db = openDatabase(dir, migrationsDir);
    expect(db.pragma('user_version', { simple: true })).toBe(migrations.length);
    expect(db.prepare('SELECT name, class, cap FROM lanes ORDER BY rowid').all()).toEqual([
      { name: 'worker', class: 'cpu', cap: 1 },
      { name: 'ml', class: 'ml', cap: 0 },
    ]);
    const columns = (db.prepare('PRAGMA table_info(lanes)').all() as { name: string }[]).map((c) => c.name);
    expect(columns).not.toContain('slots');
    expect(columns).not.toContain('enabled');
    expect(columns).not.toContain('autoscale');
    db.close();
  });

  it('rewrites the caps of a manual-dial database instead of carrying slots over, keeping its jobs', () => {
    const old = new Database(join(dir, 'lanes.db'));
    migrate(old, migrations, 'lanes.db', 1);
    old.exec(`UPDATE lanes SET slots = 4 WHERE name = 'worker'; UPDATE lanes SET slots = 2, enabled = 0 WHERE name = 'ml';
              INSERT INTO lanes (name, class, slots, enabled, autoscale, created_at) VALUES ('gpu', 'ml', 3, 1, 1, 1);
              INSERT INTO jobs (lane, spec, created_at) VALUES ('worker', '{"kind":"argv","argv":["true"]}', 1), ('gpu', '{"kind":"argv","argv":["true"]}', 2);`);
    old.close();
    const db = openDatabase(dir, migrationsDir);
    expect(db.prepare('SELECT name, cap FROM lanes ORDER BY rowid').all()).toEqual([
      { name: 'worker', cap: 1 },
      { name: 'ml', cap: 0 },
      { name: 'gpu', cap: 0 },
    ]);
    expect(db.prepare('SELECT lane, queued FROM lane_counts ORDER BY lane').all()).toEqual([
      { lane: 'gpu', queued: 1 },
      { lane: 'ml', queued: 0 },
      { lane: 'worker', queued: 1 },
    ]);
    db.close();
  });

  it('refuses a database from a newer Lanes and leaves it byte for byte untouched', () => {
    const file = join(dir, 'lanes.db');
    const newer = new Database(file);
    newer.pragma(`user_version = ${migrations.length + 1}`);
    newer.close();
    const before = readFileSync(file);
    expect(() => openDatabase(dir, migrationsDir)).toThrow(/newer Lanes .*left untouched/);
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it('keeps lane counts equal to a real count through every kind of change', async () => {
    const engine = await startEngine(dir);
    const { ids } = await engine.request('addJobs', { jobs: Array.from({ length: 4 }, () => ({ argv: ['false'], maxAttempts: 1 })) });
    await engine.request('cancel', { id: ids[3]! });
    await engine.stop();
    const db = new Database(join(dir, 'lanes.db'));
    const real = db.prepare(`SELECT state, count(*) AS n FROM jobs WHERE lane = 'worker' GROUP BY state`).all() as { state: string; n: number }[];
    const kept = db.prepare(`SELECT * FROM lane_counts WHERE lane = 'worker'`).get() as Record<string, number>;
    for (const { state, n } of real) expect(kept[state]).toBe(n);
    db.close();
  });
});

describe('lane counts kept in memory', () => {
  it('are counted afresh when the last engine did not save them (it crashed), and saved when it stops', async () => {
    const first = await startEngine(dir);
    const { ids } = await first.request('addJobs', { jobs: Array.from({ length: 5 }, () => ({ argv: ['true'] })) });
    await first.request('cancel', { id: ids[4]! });
    await first.stop();
    // What a crash leaves: saved counts that are wrong, not marked exact.
    const db = new Database(join(dir, 'lanes.db'));
    db.exec(`UPDATE lane_counts SET queued = 999, succeeded = 999 WHERE lane = 'worker'; UPDATE store_flags SET value = 0 WHERE name = 'counts_exact'`);
    db.close();
    const second = await startEngine(dir);
    const worker = () => second.status().lanes.find((l) => l.name === 'worker')!;
    expect({ ...worker(), waiting: worker().waiting + worker().running }).toMatchObject({ cancelled: 1 });
    expect(worker().succeeded + worker().waiting + worker().running).toBe(4);
    // While it runs, the saved counts are not to be trusted by anyone else.
    const peek = new Database(join(dir, 'lanes.db'), { readonly: true });
    expect(peek.prepare(`SELECT value FROM store_flags WHERE name = 'counts_exact'`).get()).toEqual({ value: 0 });
    peek.close();
    await second.stop();
    const after = new Database(join(dir, 'lanes.db'), { readonly: true });
    expect(after.prepare(`SELECT value FROM store_flags WHERE name = 'counts_exact'`).get()).toEqual({ value: 1 });
    expect(after.prepare(`SELECT queued + running + succeeded AS n, cancelled FROM lane_counts WHERE lane = 'worker'`).get()).toEqual({ n: 4, cancelled: 1 });
    after.close();
  });
});

describe('one engine per data directory', () => {
  it('refuses a second engine, naming the running one', async () => {
    const first = await startEngine(dir);
    await expect(startEngine(dir)).rejects.toThrow(new RegExp(`already running for .* \\(pid ${process.pid}`));
    await first.stop();
    const again = await startEngine(dir);
    await again.stop();
  });
});
