// The engine's timing settings from the environment: the sizer's tick and how often the machine
// is read. The ceiling itself comes from the machine's limits (machine/limits.ts).
import { ENGINE_DEFAULTS } from './defaults.js';

/** A whole number of milliseconds from `name`, or `fallback` when unset; a bad one stops the start, naming it. */
function msFromEnv(env: NodeJS.ProcessEnv, name: string, fallback: number, least: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(n) || n < least) throw new Error(`${name} must be a whole number of milliseconds ≥ ${least}, got "${raw}"`);
  return n;
}

/** The sizer's tick: LANES_TICK_MS, else the default (a minute). */
export const tickFromEnv = (env: NodeJS.ProcessEnv = process.env): number => msFromEnv(env, 'LANES_TICK_MS', ENGINE_DEFAULTS.tickMs, 10);

/** How often the machine is read (machine/watcher.ts): LANES_SAMPLE_MS, else the default. */
export const sampleFromEnv = (env: NodeJS.ProcessEnv = process.env): number => msFromEnv(env, 'LANES_SAMPLE_MS', ENGINE_DEFAULTS.sampleMs, 100);
