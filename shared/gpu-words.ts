// The GPU line, in the same words wherever it is shown: `lanes status`, the tray and the window.
// Only where GPU memory is known (nvidia-smi) or is the system's (Apple silicon); on any other
// machine there is no line at all. Pure, and free of Node, so the window uses it as it is.
import type { GpuStatus, MachineStatus } from './model.js';
import { aboutBytes } from './format.js';

/** "GPU 0, NVIDIA GeForce RTX 4090: 24 GB, 19 GB in use (18 GB by Lanes' workers), 5.4 GB more for workers". */
export function gpuCardWords(g: GpuStatus, several: boolean): string {
  const held = g.heldByLanesBytes > 0 ? ` (${aboutBytes(g.heldByLanesBytes)} by Lanes' workers)` : '';
  const more = Math.max(0, g.forWorkersBytes - g.heldByLanesBytes);
  return `GPU${several ? ` ${g.index}` : ''}${g.name ? `, ${g.name}` : ''}: ${aboutBytes(g.totalBytes)}, ${aboutBytes(g.usedBytes)} in use${held}, ${aboutBytes(more)} more for workers`;
}

/** One line per card, or the one line saying where GPU memory comes from; none where it is not known. */
export function gpuLines(machine: Pick<MachineStatus, 'gpuMemory' | 'gpus'>): string[] {
  if (machine.gpuMemory === 'unified') return ['GPU: shares the system memory (Apple silicon); the memory for workers covers it'];
  if (machine.gpuMemory !== 'nvidia') return [];
  const gpus = machine.gpus ?? [];
  if (gpus.length === 0) return ['GPU: read while an ml lane has work'];
  return gpus.map((g) => gpuCardWords(g, gpus.length > 1));
}
