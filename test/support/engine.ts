// Real engines in temporary data directories, and ways to wait for what they announce.
import { mkdtempSync, rmSync } from 'node:fs';
import { afterEach, beforeEach } from 'vitest';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LanesEvent } from '../../shared/events.js';
import type { Job } from '../../shared/model.js';
import { openEngine, type Engine, type EngineOptions } from '../../electron/engine/index.js';
import { quietMachine } from './machine.js';

export function tempDir(prefix = 'lanes-test-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** An engine on a quiet fake machine (test/support/machine.ts); `o.machineReaders` replaces any of its readers. */
export async function startEngine(dataDir: string, o: Partial<EngineOptions> = {}): Promise<Engine> {
  return openEngine({ dataDir, cores: 4, tickMs: 200, heartbeatMs: 1000, cancelGraceMs: 500, log: () => {}, ...o, machineReaders: quietMachine(o.machineReaders) });
}

export interface EngineEachTest {
  readonly dir: string;
  readonly engine: Engine;
  /** Stops this test's engine and starts another on the same data directory. */
  restart(more?: Partial<EngineOptions>): Promise<Engine>;
}

/** A new data directory and engine for every test in the file, stopped and removed after it. */
/**
 * Engines a test opens itself, each in its own folder: `start` opens one there (as startEngine),
 * and after each test every one is stopped and its folder removed.
 */
export function enginesEachTest(): (dir: { dir: string; cleanup: () => void }, o?: Partial<EngineOptions>) => Promise<Engine> {
  let open: { engine: Engine; cleanup: () => void }[] = [];
  afterEach(async () => {
    for (const o of open) {
      await o.engine.stop({ graceMs: 2000 });
      o.cleanup();
    }
    open = [];
  });
  return async (dir, o = {}) => {
    const engine = await startEngine(dir.dir, o);
    open.push({ engine, cleanup: dir.cleanup });
    return engine;
  };
}

export function engineEachTest(o: Partial<EngineOptions> = {}): EngineEachTest {
  let dir = '';
  let engine: Engine | undefined;
  let cleanup = () => {};
  beforeEach(async () => {
    ({ dir, cleanup } = tempDir());
    engine = await startEngine(dir, o);
  });
  afterEach(async () => {
    await engine?.stop({ graceMs: 2000 });
    cleanup();
  });
  return {
    get dir() {
      return dir;
    },
    get engine() {
      return engine!;
    },
    async restart(more = {}) {
      await engine?.stop({ graceMs: 2000 });
      engine = await startEngine(dir, { ...o, ...more });
      return engine;
    },
  };
}

/** Resolves with the first event (from now on) that matches; rejects after `timeoutMs`. */
export function nextEvent<T extends LanesEvent>(engine: Engine, match: (e: LanesEvent) => e is T, timeoutMs?: number): Promise<T>;
export function nextEvent(engine: Engine, match: (e: LanesEvent) => boolean, timeoutMs?: number): Promise<LanesEvent>;
export function nextEvent(engine: Engine, match: (e: LanesEvent) => boolean, timeoutMs = 30_000): Promise<LanesEvent> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => (off(), reject(new Error(`no matching event within ${timeoutMs} ms`))), timeoutMs);
    const off = engine.events.subscribe((e) => {
      if (!match(e)) return;
      clearTimeout(timer);
      off();
      resolve(e);
    });
  });
}

const FINAL = new Set(['succeeded', 'failed', 'cancelled']);

/** Waits until every id has reached a final state; returns the jobs as they ended. */
export async function jobsFinished(engine: Engine, ids: number[], timeoutMs = 60_000): Promise<Job[]> {
  const pending = new Set(ids);
  const waiter = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => (off(), reject(new Error(`jobs not finished within ${timeoutMs} ms: ${[...pending].join(', ')}`))), timeoutMs);
    const off = engine.events.subscribe((e) => {
      if (e.type === 'job' && FINAL.has(e.data.state)) pending.delete(e.data.id);
      if (pending.size > 0) return;
      clearTimeout(timer);
      off();
      resolve();
    });
  });
  // Some may have finished before we subscribed.
  for (const id of ids) if (FINAL.has((await engine.request('job', { id })).state)) pending.delete(id);
  if (pending.size > 0) await waiter;
  return Promise.all(ids.map((id) => engine.request('job', { id })));
}

/** Waits until `check` holds for the engine's status, re-checking on every lane event. */
export async function until(engine: Engine, check: () => boolean, timeoutMs = 30_000, what = 'condition'): Promise<void> {
  if (check()) return;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => (off(), reject(new Error(`${what} not reached within ${timeoutMs} ms`))), timeoutMs);
    const off = engine.events.subscribe(() => {
      if (!check()) return;
      clearTimeout(timer);
      off();
      resolve();
    });
  });
}

// Lives with the other looks at processes (poll.ts); the engine tests import it from here too.
export { pidAlive } from './poll.js';

/**
 * A shell expression for the pid of the worker that runs the job: the job's parent, or, where the
 * worker starts its jobs through a /bin/sh of its own (its job starter), that shell's parent.
 */
export const WORKER_PID = `$(w=$PPID; [ "$(cat /proc/$w/comm)" = sh ] && w=$(cut -d ' ' -f 4 /proc/$w/stat); echo $w)`;
