// The engine's timing settings from the environment: the sizer's tick and how often the machine
// is read. The ceiling itself comes from the machine's limits (machine/limits.ts).

export function tickFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.LANES_TICK_MS;
  if (raw === undefined || raw === '') return 60_000;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 10) throw new Error(`LANES_TICK_MS must be a whole number of milliseconds ≥ 10, got "${raw}"`);
  return n;
}

/** How often the machine is read (machine/watcher.ts): LANES_SAMPLE_MS, else 15 s. */
export function sampleFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.LANES_SAMPLE_MS;
  if (raw === undefined || raw === '') return 15_000;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 100) throw new Error(`LANES_SAMPLE_MS must be a whole number of milliseconds ≥ 100, got "${raw}"`);
  return n;
}
