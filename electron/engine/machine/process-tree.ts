// Every process on a Linux machine, read from /proc in one pass: parent, resident memory and CPU
// time. One scan serves every worker, so measuring 50 workers costs one walk of /proc, not 50.
// Children are found by parent id rather than /proc/<pid>/task/*/children, which kernels without
// CONFIG_PROC_CHILDREN (and some sandboxes) do not offer, and which lists a thread's children only.
import { readdirSync, readFileSync } from 'node:fs';

export interface ProcessEntry {
  pid: number;
  ppid: number;
  rssBytes: number;
  /** utime + stime + cutime + cstime, ms: its own CPU and that of the children it has reaped. */
  cpuMs: number;
}

/** USER_HZ: the unit of the times in /proc/<pid>/stat. 100 on every Linux architecture Node runs on. */
const TICK_MS = 10;

/** One line of /proc/<pid>/stat. The command name may hold spaces and parentheses: fields count from the last ")". */
export function parseStat(text: string, pageBytes: number): ProcessEntry | null {
  const close = text.lastIndexOf(')');
  if (close < 0) return null;
  const pid = Number(text.slice(0, text.indexOf(' ')));
  // After ")": state(3) ppid(4) … utime(14) stime(15) cutime(16) cstime(17) … rss(24); f[0] is field 3.
  const f = text.slice(close + 2).split(' ');
  const ppid = Number(f[1]);
  const ticks = Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
  const rss = Number(f[21]);
  if (!Number.isInteger(pid) || !Number.isInteger(ppid) || !Number.isFinite(ticks) || !Number.isFinite(rss)) return null;
  return { pid, ppid, rssBytes: Math.max(0, rss) * pageBytes, cpuMs: ticks * TICK_MS };
}

let pageBytesCache: number | null = null;

/**
 * The page size, which /proc/<pid>/stat counts rss in: 4 KiB on x86, but 16 or 64 KiB on some
 * ARM kernels. Node cannot call sysconf, so it is read off this process, whose rss /proc gives
 * both in pages (stat) and in kB (status).
 */
export function pageBytes(): number {
  if (pageBytesCache !== null) return pageBytesCache;
  pageBytesCache = 4096;
  try {
    const status = readFileSync('/proc/self/status', 'utf8');
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
    const pages = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[21]);
    const ratio = (kb * 1024) / pages;
    pageBytesCache = [4096, 16384, 65536].reduce((best, size) => (Math.abs(size - ratio) < Math.abs(best - ratio) ? size : best), 4096);
  } catch {
    // Not Linux, or /proc is not what it seems: 4 KiB.
  }
  return pageBytesCache;
}

/** Every process readable now. One that exits mid-scan is simply left out. */
export function scanProcesses(proc = '/proc'): Map<number, ProcessEntry> {
  const page = pageBytes();
  const all = new Map<number, ProcessEntry>();
  for (const name of readdirSync(proc)) {
    const c = name.charCodeAt(0);
    if (c < 48 || c > 57) continue;
    let text: string;
    try {
      text = readFileSync(`${proc}/${name}/stat`, 'latin1');
    } catch {
      continue;
    }
    const e = parseStat(text, page);
    if (e) all.set(e.pid, e);
  }
  return all;
}

/** Parent → children, built once per scan. */
export function childrenOf(all: ReadonlyMap<number, ProcessEntry>): Map<number, number[]> {
  const kids = new Map<number, number[]>();
  for (const e of all.values()) {
    const list = kids.get(e.ppid);
    if (list) list.push(e.pid);
    else kids.set(e.ppid, [e.pid]);
  }
  return kids;
}

/** `root` and all its descendants that are alive, `root` first. */
export function treeOf(root: number, all: ReadonlyMap<number, ProcessEntry>, kids: ReadonlyMap<number, number[]>): ProcessEntry[] {
  const out: ProcessEntry[] = [];
  const seen = new Set<number>();
  const stack = [root];
  while (stack.length) {
    const pid = stack.pop()!;
    const e = all.get(pid);
    if (!e || seen.has(pid)) continue;
    seen.add(pid);
    out.push(e);
    for (const k of kids.get(pid) ?? []) stack.push(k);
  }
  return out;
}
