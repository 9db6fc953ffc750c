// The machine ceiling: the most workers all lanes together may run. One core stays with the
// person, so the machine they are using never feels taken over.
import si from 'systeminformation';

export const machineCeiling = (logicalCores: number): number => Math.max(1, Math.floor(logicalCores) - 1);

/** Logical cores: LANES_CORES when set (containers, tests), else what the hardware reports. */
export async function detectCores(env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const forced = env.LANES_CORES;
  if (forced !== undefined && forced !== '') {
    const n = Number(forced);
    if (!Number.isInteger(n) || n < 1) throw new Error(`LANES_CORES must be a whole number ≥ 1, got "${forced}"`);
    return n;
  }
  const cpu = await si.cpu();
  return cpu.cores > 0 ? cpu.cores : 1;
}

export function tickFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.LANES_TICK_MS;
  if (raw === undefined || raw === '') return 60_000;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 10) throw new Error(`LANES_TICK_MS must be a whole number of milliseconds ≥ 10, got "${raw}"`);
  return n;
}
