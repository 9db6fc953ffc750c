// What each worker costs the machine, measured: the resident memory of the worker and everything
// it runs (its runtime, its persistent command, its job's processes), and the CPU they used since
// the last look. On Linux one /proc scan serves all workers (process-tree.ts), and where a job or
// a persistent command has a cgroup of its own (containment.ts) its working set counts instead of
// its processes' RSS, so a child that left the tree (setsid and double fork) is still counted.
// Elsewhere systeminformation lists the processes (one `ps` on macOS, one CIM query on Windows).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import si from 'systeminformation';
import { jobCgroup, type JobRef } from '../../job-control/containment.js';
import { statField } from './cgroup.js';
import { childrenOf, scanProcesses, treeOf, type ProcessEntry } from './process-tree.js';

export interface WorkerTarget {
  /** The engine's name for the worker. */
  id: string;
  pid: number;
  /** cgroup v2 directories holding what it runs (see `workerCgroups`); ones that do not exist are skipped. */
  cgroups?: readonly string[];
}

export interface WorkerUsage {
  id: string;
  /** Resident bytes of the worker and everything it runs; 0 if it is gone. */
  bytes: number;
  /** CPU-ms its processes used since the previous measure (0 on the first). */
  cpuMs: number;
  /** Processes counted. */
  processes: number;
  /** Their pids, the tree's and its cgroups': what the GPU's per-process figures are matched by. */
  pids: number[];
  /** Bytes they hold on the GPUs, when the GPUs were read with this measure (watcher.ts). */
  gpuBytes?: number;
  /** The card (uuid) they hold most on, when they hold any. */
  gpuCard?: string;
}

/** The cgroups a worker's processes may be in: its persistent command's (persistent.ts) and its current job's (shell-job.ts). */
export function workerCgroups(base: string | null, workerPid: number, job: JobRef | null): string[] {
  if (base === null) return [];
  return [join(base, `command-${workerPid}`), ...(job ? [jobCgroup(base, job)] : [])];
}

interface Scan {
  all: Map<number, ProcessEntry>;
  /** 'total': cpuMs is CPU used so far (Linux); 'percent': cpuMs is the current % of one core (ps, CIM). */
  cpu: 'total' | 'percent';
}

async function portableScan(): Promise<Scan> {
  const { list } = await si.processes();
  const all = new Map<number, ProcessEntry>();
  for (const p of list) all.set(p.pid, { pid: p.pid, ppid: p.parentPid, rssBytes: p.memRss * 1024, cpuMs: p.cpu });
  return { all, cpu: 'percent' };
}

/** A cgroup's working set (memory.current less inactive file cache) and its processes; null if it is not there. */
function readGroup(dir: string): { bytes: number; pids: Set<number> } | null {
  try {
    const procs = readFileSync(join(dir, 'cgroup.procs'), 'utf8');
    const current = Number(readFileSync(join(dir, 'memory.current'), 'utf8'));
    const inactive = statField(readFileSync(join(dir, 'memory.stat'), 'utf8'), 'inactive_file');
    return { bytes: Math.max(0, current - inactive), pids: new Set(procs.split('\n').filter(Boolean).map(Number)) };
  } catch {
    return null;
  }
}

export class WorkerMeter {
  /** CPU-ms each process had used at the last measure. */
  private cpuSeen = new Map<number, number>();
  private lastAt: number | null = null;

  constructor(private readonly options: { portable?: boolean; proc?: string; now?: () => number } = {}) {}

  async measure(targets: readonly WorkerTarget[]): Promise<{ workers: WorkerUsage[]; cpuMs: number }> {
    const now = (this.options.now ?? Date.now)();
    // No worker, nothing to look for: a desktop's /proc is hundreds of directories.
    if (targets.length === 0) {
      this.cpuSeen = new Map();
      this.lastAt = now;
      return { workers: [], cpuMs: 0 };
    }
    const scan = process.platform === 'linux' && !this.options.portable ? { all: scanProcesses(this.options.proc), cpu: 'total' as const } : await portableScan();
    const kids = childrenOf(scan.all);
    const first = this.lastAt === null;
    const dt = first ? 0 : now - this.lastAt!;
    const seen = new Map<number, number>();
    const cpuDelta = (e: ProcessEntry): number => {
      if (scan.cpu === 'percent') return (e.cpuMs / 100) * dt;
      seen.set(e.pid, e.cpuMs);
      // A process not seen before started since the last look (all its time is new), unless this is the first look.
      const before = this.cpuSeen.get(e.pid) ?? (first ? e.cpuMs : 0);
      return Math.max(0, e.cpuMs - before);
    };
    let total = 0;
    const workers = targets.map((t): WorkerUsage => {
      const tree = treeOf(t.pid, scan.all, kids);
      const groups = (t.cgroups ?? []).map(readGroup).filter((g) => g !== null);
      const grouped = (pid: number) => groups.some((g) => g.pids.has(pid));
      let bytes = groups.reduce((n, g) => n + g.bytes, 0);
      let cpuMs = 0;
      const pids = new Set<number>();
      for (const g of groups) for (const pid of g.pids) pids.add(pid);
      for (const e of tree) {
        if (!grouped(e.pid)) bytes += e.rssBytes;
        cpuMs += cpuDelta(e);
        pids.add(e.pid);
      }
      total += cpuMs;
      return { id: t.id, bytes, cpuMs, processes: tree.length, pids: [...pids] };
    });
    this.cpuSeen = seen;
    this.lastAt = now;
    return { workers, cpuMs: total };
  }
}
