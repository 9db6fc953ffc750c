// Opening the engine, in the order its parts need each other: its private directory and lock, the
// database, the jobs' cgroup, a first reading of the machine, then the engine itself, whose fleet
// the machine's watcher is pointed at once it exists. What runs after that is lanes-engine.ts.
// Nothing here imports Electron; the desktop app, `lanes daemon` and the tests all run this.
import { join } from 'node:path';
import { migrationsDir } from '../paths/app-files.js';
import { makePrivate, preparePrivateDir, privateSubdir } from '../paths/private-dir.js';
import { engineCgroup } from '../job-control/containment.js';
import { sampleFromEnv, tickFromEnv } from './ceiling.js';
import { Machine } from './machine/machine.js';
import { LaneCosts } from './store/lane-costs.js';
import type { Fleet } from './fleet/fleet.js';
import { acquireLock } from './lock.js';
import { openDatabase } from './store/db.js';
import { defaultLog, type Engine, type EngineOptions } from './engine-types.js';
import { LanesEngine } from './lanes-engine.js';

export type { Engine, EngineOptions } from './engine-types.js';

export async function openEngine(options: EngineOptions): Promise<Engine> {
  preparePrivateDir(options.dataDir, options.log ?? defaultLog);
  privateSubdir(join(options.dataDir, 'logs'));
  const startedAt = Date.now();
  const tickMs = options.tickMs ?? tickFromEnv();
  const sampleMs = options.sampleMs ?? sampleFromEnv(options.env);
  const lock = acquireLock(options.dataDir, startedAt);
  let machine: Machine | null = null;
  try {
    const db = openDatabase(options.dataDir, migrationsDir);
    for (const file of ['lanes.db', 'lanes.db-wal', 'lanes.db-shm', 'engine.lock']) makePrivate(join(options.dataDir, file));
    const cgroupBase = options.cgroups === false ? null : await engineCgroup();
    // The fleet is made after the machine's first reading; until then the machine sees no workers.
    const late: { fleet: Fleet | null; engine: LanesEngine | null } = { fleet: null, engine: null };
    const log = options.log ?? defaultLog;
    machine = await Machine.open({
      watcher: { env: options.env, cores: options.cores, desktop: options.desktop ?? null, sampleMs, readers: options.machineReaders, log },
      costs: new LaneCosts(db),
      gpuCosts: new LaneCosts(db, 'gpu'),
      workers: () => late.fleet?.liveWorkers() ?? [],
      moved: () => late.engine?.machineMoved(),
      critical: (stop) => late.fleet?.criticalStop(stop),
      log,
    });
    const engine = new LanesEngine(options, db, lock, machine, tickMs, startedAt, cgroupBase);
    late.fleet = engine.fleetForMachine;
    late.engine = engine;
    await engine.begin();
    return engine;
  } catch (e) {
    machine?.stop();
    lock.release();
    throw e;
  }
}
