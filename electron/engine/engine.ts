// Opening the engine, in the order its parts need each other: its private directory and lock, the
// database, the jobs' cgroup, then the engine itself (lanes-engine.ts), which reads the machine
// once before it sizes anything. Nothing here imports Electron; the desktop app, `lanes daemon`
// and the tests all run this.
import { join } from 'node:path';
import { migrationsDir } from '../paths/app-files.js';
import { makePrivate, preparePrivateDir, privateSubdir, privateUmask } from '../paths/private-dir.js';
import { engineCgroup } from '../job-control/containment.js';
import { engineSettings } from './settings.js';
import { acquireLock } from './lock.js';
import { openDatabase } from './store/db.js';
import type { Engine, EngineOptions } from './engine-types.js';
import { LanesEngine } from './lanes-engine.js';

export type { Engine, EngineOptions } from './engine-types.js';

export async function openEngine(options: EngineOptions): Promise<Engine> {
  // Before the first file: SQLite makes its side files (engine.lock-journal) with the umask.
  privateUmask();
  const settings = engineSettings(options);
  preparePrivateDir(options.dataDir, settings.log);
  privateSubdir(join(options.dataDir, 'logs'));
  const startedAt = Date.now();
  const lock = acquireLock(options.dataDir, startedAt);
  try {
    const db = openDatabase(options.dataDir, migrationsDir);
    // Files an older engine made before it ran under umask 077.
    for (const file of ['lanes.db', 'lanes.db-wal', 'lanes.db-shm', 'engine.lock', 'engine.lock-journal']) makePrivate(join(options.dataDir, file));
    const cgroupBase = options.cgroups === false ? null : await engineCgroup();
    const engine = await LanesEngine.open({ options, settings, db, lock, startedAt, cgroupBase });
    await engine.begin();
    return engine;
  } catch (e) {
    lock.release();
    throw e;
  }
}
