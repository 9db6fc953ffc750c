// The limits a container (or a systemd slice) puts on this process: its cgroup's CPU quota and
// memory limit. Inside Docker or Kubernetes the hardware's core count is the host's (64) while the
// quota may be 2, so the quota is what sizing must believe. The process's own cgroup is found from
// /proc/self/cgroup and /proc/self/mountinfo (cgroup2 may be at /sys/fs/cgroup, or at
// /sys/fs/cgroup/unified beside v1 controllers); every level up to the mount is read, since a
// limit set on a parent binds its children, and the tightest wins. v1 controllers are read the
// same way where a host still mounts them. Parsers are pure; `root` lets tests read fixtures.
import { readFileSync } from 'node:fs';
import { join, posix } from 'node:path';

export interface CgroupLimits {
  /** CPUs the quota allows (quota ÷ period, e.g. 1.5), tightest up the tree; null: no quota. */
  cpus: number | null;
  /** The tightest memory limit in bytes; null: none. */
  memoryMax: number | null;
  /** Bytes still free under the limits: the least, over the levels with one, of limit − working set; null: no limit. */
  memoryFree: number | null;
  /** Where this cgroup's own CPU time is counted, so load can be judged inside the container. */
  cpuUsage: { file: string; unit: 'usec-stat' | 'nsec' } | null;
}

/** v1 "unlimited" is the largest page-aligned signed 64-bit number; anything this large is no limit. */
const UNLIMITED = 2 ** 60;

/** cgroup v2 `cpu.max`: "200000 100000" → 2 CPUs; "max 100000" → null. */
export function parseCpuMax(text: string): number | null {
  const [quota, period = '100000'] = text.trim().split(/\s+/);
  if (quota === 'max') return null;
  const q = Number(quota);
  const p = Number(period);
  return Number.isFinite(q) && Number.isFinite(p) && q > 0 && p > 0 ? q / p : null;
}

/** cgroup v2 `memory.max` ("max" or bytes) or v1 `memory.limit_in_bytes`. */
export function parseMemoryMax(text: string): number | null {
  const t = text.trim();
  if (t === 'max') return null;
  const n = Number(t);
  return Number.isFinite(n) && n > 0 && n < UNLIMITED ? n : null;
}

/** One counter from a `memory.stat` or `cpu.stat` file (lines of "name value"); 0 if absent. */
export function statField(text: string, name: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  const n = Number(line?.slice(name.length + 1));
  return Number.isFinite(n) ? n : 0;
}

/** `/proc/self/cgroup`: the v2 path ("0::/…") and each v1 controller's path. */
export function parseProcCgroup(text: string): { v2: string | null; v1: Map<string, string> } {
  const v1 = new Map<string, string>();
  let v2: string | null = null;
  for (const line of text.split('\n')) {
    const m = /^(\d+):([^:]*):(.*)$/.exec(line);
    if (!m) continue;
    if (m[1] === '0' && m[2] === '') v2 = m[3]!;
    else for (const controller of m[2]!.split(',')) if (controller) v1.set(controller, m[3]!);
  }
  return { v2, v1 };
}

interface Mount {
  /** Where it is mounted. */
  at: string;
  /** Which cgroup the mount shows as its top (not "/" inside a container without a cgroup namespace). */
  root: string;
}

/** `/proc/self/mountinfo`: the cgroup2 mount and each v1 controller's mount. */
export function parseMountinfo(text: string): { v2: Mount | null; v1: Map<string, Mount> } {
  const v1 = new Map<string, Mount>();
  let v2: Mount | null = null;
  for (const line of text.split('\n')) {
    const f = line.split(' ');
    const dash = f.indexOf('-');
    if (dash < 0 || f.length < dash + 4) continue;
    const mount = { root: unescapeMount(f[3]!), at: unescapeMount(f[4]!) };
    if (f[dash + 1] === 'cgroup2') v2 ??= mount;
    else if (f[dash + 1] === 'cgroup') for (const opt of f[dash + 3]!.split(',')) v1.set(opt, mount);
  }
  return { v2, v1 };
}

const unescapeMount = (s: string) => s.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));

/** The directories from the process's own cgroup up to the mount, deepest first (paths as on this machine). */
export function levels(mount: Mount, path: string): string[] {
  const rel = posix.relative(mount.root, path);
  // Outside what the mount shows (a namespace seen from the wrong side): only the mount itself is ours to read.
  const parts = rel.startsWith('..') ? [] : rel.split('/').filter(Boolean);
  const out: string[] = [];
  for (let i = parts.length; i >= 0; i--) out.push(posix.join(mount.at, ...parts.slice(0, i)));
  return out;
}

const readOr = (file: string): string | null => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
};

/** The limits on this process, or all nulls where there are none (or not Linux). */
export function readCgroupLimits(root = '/'): CgroupLimits {
  const none: CgroupLimits = { cpus: null, memoryMax: null, memoryFree: null, cpuUsage: null };
  const self = readOr(join(root, 'proc/self/cgroup'));
  const mountinfo = readOr(join(root, 'proc/self/mountinfo'));
  if (self === null || mountinfo === null) return none;
  const paths = parseProcCgroup(self);
  const mounts = parseMountinfo(mountinfo);
  const at = (mount: Mount | undefined | null, path: string | null | undefined) =>
    mount && path !== null && path !== undefined ? levels(mount, path).map((d) => join(root, d)) : [];

  const out = { ...none };
  // Where the quota binds: its CPU time is the container's, everything beneath the quota.
  let usage: CgroupLimits['cpuUsage'] = null;
  const tighter = (cpus: number | null, at: CgroupLimits['cpuUsage']) => {
    if (cpus === null || (out.cpus !== null && cpus >= out.cpus)) return;
    out.cpus = cpus;
    usage = at;
  };
  const memoryAt = (max: number | null, used: number, inactive: number) => {
    if (max === null) return;
    out.memoryMax = Math.min(out.memoryMax ?? Infinity, max);
    out.memoryFree = Math.min(out.memoryFree ?? Infinity, Math.max(0, max - Math.max(0, used - inactive)));
  };
  const v2 = at(mounts.v2, paths.v2);
  for (const dir of v2) {
    const cpu = readOr(join(dir, 'cpu.max'));
    tighter(cpu === null ? null : parseCpuMax(cpu), { file: join(dir, 'cpu.stat'), unit: 'usec-stat' });
    const mem = readOr(join(dir, 'memory.max'));
    // The working set leaves out page cache the kernel would drop first (inactive files), as kubelet and docker stats do.
    if (mem !== null) memoryAt(parseMemoryMax(mem), Number(readOr(join(dir, 'memory.current')) ?? 0), statField(readOr(join(dir, 'memory.stat')) ?? '', 'inactive_file'));
  }
  // v1 usually mounts cpu and cpuacct together ("cpu,cpuacct"); apart, the process's own cpuacct group stands in.
  const acct = mounts.v1.get('cpuacct') === mounts.v1.get('cpu') ? null : at(mounts.v1.get('cpuacct'), paths.v1.get('cpuacct'))[0];
  for (const dir of at(mounts.v1.get('cpu'), paths.v1.get('cpu'))) {
    const quota = Number(readOr(join(dir, 'cpu.cfs_quota_us')) ?? -1);
    const period = Number(readOr(join(dir, 'cpu.cfs_period_us')) ?? 0);
    tighter(quota > 0 && period > 0 ? quota / period : null, acct === undefined ? null : { file: join(acct ?? dir, 'cpuacct.usage'), unit: 'nsec' });
  }
  for (const dir of at(mounts.v1.get('memory'), paths.v1.get('memory'))) {
    const mem = readOr(join(dir, 'memory.limit_in_bytes'));
    if (mem !== null) memoryAt(parseMemoryMax(mem), Number(readOr(join(dir, 'memory.usage_in_bytes')) ?? 0), statField(readOr(join(dir, 'memory.stat')) ?? '', 'total_inactive_file'));
  }
  out.cpuUsage = usage;
  return out;
}

/** CPU-ms the cgroup has used so far, from `cpuUsage`; null if it cannot be read now. */
export function readCgroupCpuMs(usage: NonNullable<CgroupLimits['cpuUsage']>): number | null {
  const text = readOr(usage.file);
  if (text === null) return null;
  return usage.unit === 'usec-stat' ? statField(text, 'usage_usec') / 1000 : Number(text) / 1e6;
}
