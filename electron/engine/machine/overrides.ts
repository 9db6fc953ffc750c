// What a person (or a test, or a container's start script) may tell Lanes about the machine
// instead of letting it look: each is one environment variable, as LANES_CORES has always been.
// A bad value is refused with the variable's name, before anything starts, and nothing is guessed.
import type { PowerSource } from './facts.js';

export interface Overrides {
  /** LANES_CORES: the cores Lanes may count on. A budget: the container quota and other programs' load no longer move it. */
  cores: number | null;
  /** LANES_MEMORY: the bytes Lanes' workers may use between them, instead of a share of free memory. */
  memory: number | null;
  /** LANES_POWER: run as if on this power source. */
  power: PowerSource | null;
  /** LANES_GPU_MEMORY: the GPU bytes ml workers may use between them, instead of what is free on the cards. */
  gpuMemory?: number | null;
}

const UNITS: Record<string, number> = { '': 1, K: 2 ** 10, M: 2 ** 20, G: 2 ** 30, T: 2 ** 40 };

const given = (raw: string | undefined): raw is string => raw !== undefined && raw.trim() !== '';

export function parseCores(raw: string | undefined): number | null {
  if (!given(raw)) return null;
  const n = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > 4096) throw new Error(`LANES_CORES must be a whole number from 1 to 4096, got "${raw}"`);
  return n;
}

/**
 * Bytes, with an optional binary suffix as container tools write them: `1500M`, `1.5G`, `512k`,
 * `2GiB`. Binary because that is what `docker run --memory` and cgroups mean by M and G.
 */
export function parseMemory(raw: string | undefined, name = 'LANES_MEMORY'): number | null {
  if (!given(raw)) return null;
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kKmMgGtT]?)(?:i?[bB])?\s*$/.exec(raw);
  const bytes = m ? Math.floor(Number(m[1]) * UNITS[m[2]!.toUpperCase()]!) : NaN;
  // Below 16 MiB not even one worker's runtime fits; such a value is a typo, not a wish.
  if (!Number.isSafeInteger(bytes) || bytes < 16 * 2 ** 20) {
    throw new Error(`${name} must be the memory Lanes' workers may use, at least 16M, as bytes or with K, M, G or T (e.g. 1500M, 2G), got "${raw}"`);
  }
  return bytes;
}

export function parsePower(raw: string | undefined): PowerSource | null {
  if (!given(raw)) return null;
  const v = raw.trim().toLowerCase();
  if (v !== 'ac' && v !== 'battery') throw new Error(`LANES_POWER must be "ac" or "battery", got "${raw}"`);
  return v;
}

/** All of them, read once; throws on the first bad one. */
export function readOverrides(env: NodeJS.ProcessEnv = process.env): Overrides {
  const overrides: Overrides = { cores: parseCores(env.LANES_CORES), memory: parseMemory(env.LANES_MEMORY), power: parsePower(env.LANES_POWER) };
  // Named only when given: a machine without a GPU reads exactly as before.
  const gpuMemory = parseMemory(env.LANES_GPU_MEMORY, 'LANES_GPU_MEMORY');
  if (gpuMemory !== null) overrides.gpuMemory = gpuMemory;
  return overrides;
}
