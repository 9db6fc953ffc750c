// The GPU line, in the same words wherever it is shown: `lanes status`, the tray and the window.
// Only where GPU memory is known (nvidia-smi) or is the system's (Apple silicon); on any other
// machine there is no line at all. Pure, and free of Node, so the window uses it as it is.
import type { MachineStatus } from './model.js';
import { aboutBytes, clockMinute } from './format.js';

/**
 * One fact per card ("GPU" — "NVIDIA GeForce RTX 4090 — 24 GB, 19 GB in use (18 GB by Lanes'
 * workers), 5.4 GB more for workers"), or the one saying where GPU memory comes from; none where
 * it is not known.
 */
export function gpuFacts(machine: Pick<MachineStatus, 'gpuMemory' | 'gpus' | 'gpuError' | 'gpuReadAt'>, now = Date.now()): { term: string; value: string }[] {
  if (machine.gpuMemory === 'unified') return [{ term: 'GPU', value: 'shares the system memory (Apple silicon): the memory for workers covers it' }];
  if (machine.gpuMemory !== 'nvidia') return [];
  const gpus = machine.gpus ?? [];
  // A reading that failed after a good one: the last stands, and nothing grows on it.
  const since = machine.gpuError && machine.gpuReadAt !== undefined ? [{ term: 'GPU', value: `not read since ${clockMinute(machine.gpuReadAt, now)} (${machine.gpuError}): no ml lane grows until it is` }] : [];
  if (machine.gpuError && gpus.length === 0) return since.length > 0 ? since : [{ term: 'GPU', value: `not known: ${machine.gpuError}` }];
  if (gpus.length === 0) return [{ term: 'GPU', value: 'read while an ml lane has work' }];
  return [...cardFacts(gpus), ...since];
}

function cardFacts(gpus: NonNullable<MachineStatus['gpus']>): { term: string; value: string }[] {
  return gpus.map((g) => {
    const held = g.heldByLanesBytes > 0 ? ` (${aboutBytes(g.heldByLanesBytes)} by Lanes' workers)` : '';
    const more = Math.max(0, g.forWorkersBytes - g.heldByLanesBytes);
    const name = g.name ? `${g.name} — ` : '';
    return { term: gpus.length > 1 ? `GPU ${g.index}` : 'GPU', value: `${name}${aboutBytes(g.totalBytes)}, ${aboutBytes(g.usedBytes)} in use${held}, ${aboutBytes(more)} more for workers` };
  });
}

/** The same as lines: "GPU: NVIDIA GeForce RTX 4090 — 24 GB, …". */
export const gpuLines = (machine: Pick<MachineStatus, 'gpuMemory' | 'gpus' | 'gpuError' | 'gpuReadAt'>, now = Date.now()): string[] => gpuFacts(machine, now).map((f) => `${f.term}: ${f.value}`);
