// How much memory the machine has and how much of it can still be used without swapping. On
// Linux, /proc/meminfo's MemAvailable is the kernel's own estimate (free pages plus the cache and
// slab it can drop) and costs one small read; elsewhere systeminformation asks the OS.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import si from 'systeminformation';

export interface MemoryReading {
  total: number;
  available: number;
}

/** `/proc/meminfo` → bytes. Kernels before 3.14 have no MemAvailable: free + buffers + cached stands in. */
export function parseMeminfo(text: string): MemoryReading {
  const kb = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = /^(\w+):\s+(\d+)(?:\s+kB)?\s*$/.exec(line);
    if (m) kb.set(m[1]!, Number(m[2]) * 1024);
  }
  const total = kb.get('MemTotal');
  if (total === undefined || total <= 0) throw new Error('/proc/meminfo has no MemTotal');
  const available = kb.get('MemAvailable') ?? (kb.get('MemFree') ?? 0) + (kb.get('Buffers') ?? 0) + (kb.get('Cached') ?? 0);
  return { total, available: Math.min(total, available) };
}

export async function readMemory(root = '/'): Promise<MemoryReading> {
  if (process.platform === 'linux') return parseMeminfo(readFileSync(join(root, 'proc/meminfo'), 'utf8'));
  const m = await si.mem();
  return { total: m.total, available: m.available };
}
