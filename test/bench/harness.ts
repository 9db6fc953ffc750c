// Small tools for the benchmark: fresh engines, waiting for jobs, medians.
import { fork, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEngine, type Engine } from '../../electron/engine/index.js';
import { appRoot } from '../../electron/paths/app-files.js';

export const ECHO_WORKER = ['python3', join(appRoot, 'examples', 'word_stats_worker.py')];

export async function withEngine<T>(fn: (e: Engine, dir: string) => Promise<T>, cores = 3): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'lanes-bench-'));
  const engine = await openEngine({ dataDir: dir, cores, tickMs: 60_000, log: () => {} });
  try {
    return await fn(engine, dir);
  } finally {
    await engine.stop({ graceMs: 5000 });
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Resolves when `n` jobs have finished (any final state) from now on. */
export function finished(engine: Engine, n: number): Promise<void> {
  let left = n;
  return new Promise((resolve) => {
    const off = engine.events.subscribe((e) => {
      if (e.type === 'job' && (e.data.state === 'succeeded' || e.data.state === 'failed') && --left === 0) {
        off();
        resolve();
      }
    });
  });
}

export function nextRunning(engine: Engine): Promise<number> {
  return new Promise((resolve) => {
    const off = engine.events.subscribe((e) => {
      if (e.type === 'job' && e.data.state === 'running') {
        off();
        resolve(performance.now());
      }
    });
  });
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

export async function repeat(times: number, fn: () => Promise<number>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < times; i++) out.push(await fn());
  return out;
}

/** A bare Node child's cold start: fork → its first IPC message. */
export function bareForkMs(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'lanes-fork-'));
  const script = join(dir, 'ready.mjs');
  writeFileSync(script, 'process.send("ready"); process.disconnect();');
  const t0 = performance.now();
  const child = fork(script, [], { stdio: 'ignore' });
  return new Promise((resolve) =>
    child.once('message', () => {
      resolve(performance.now() - t0);
      rmSync(dir, { recursive: true, force: true });
    }),
  );
}

/** Runs `command` `n` times straight from Node, `parallel` at a time; returns runs per second. */
export async function directSpawnRate(command: string, n: number, parallel: number): Promise<number> {
  let next = 0;
  const t0 = performance.now();
  const lane = async () => {
    while (next < n) {
      next++;
      await new Promise((resolve) => spawn(command, [], { stdio: 'ignore', detached: true }).once('close', resolve));
    }
  };
  await Promise.all(Array.from({ length: parallel }, lane));
  return (n / (performance.now() - t0)) * 1000;
}
