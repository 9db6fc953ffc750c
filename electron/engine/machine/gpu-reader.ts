// Mechanism: asking nvidia-smi about the cards and the processes on them. It is looked for once,
// on PATH, without running anything: where it is absent nothing here ever starts a process. Each
// read runs it twice (the two queries cannot share one call), bounded like a job: each call leads
// a process group of its own, and the whole group is killed when the call outlives its timeout,
// when it has answered (whatever it left running would only hold its output open), and when the
// engine stops — however it stops: where there is a /bin/sh, the call runs beside a watch on the
// engine that kills the group once the engine is gone, kill -9 included. A wedged driver, or a
// wrapper whose child keeps the output open, fails one read and leaves nothing behind. Where the
// engine has a cgroup (Linux, a writable cgroup v2), each call also runs in a cgroup of its own,
// ended as a whole, so even a child that left the group with setsid goes with the read.
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { signalGroup } from '../../job-control/process-group.js';
import { makeCgroup, removeCgroup } from '../../job-control/containment.js';
import { ENGINE_DEFAULTS } from '../defaults.js';
import { APPS_QUERY, GPU_QUERY, parseApps, parseCards, type GpuApp, type GpuCard } from './gpu.js';

/**
 * The call, under `sh`, beside a watch on the engine: a pipe from the engine, never written to,
 * that the kernel closes when the engine dies however it dies; the watch's read then ends and it
 * kills the whole group (Node has no prctl(PR_SET_PDEATHSIG) to ask the kernel for a signal).
 * The watch lets go of the call's output, so it never holds the answer open.
 */
// (A shell gives a job it runs in the background /dev/null for input: the pipe goes by fd 3.)
// With a cgroup ($1, entered first, so every process of the call is born in it), the watch ends the
// cgroup too. `sh -c WATCHED nvidia-smi CGROUP ARGS…`; an empty CGROUP: none.
const WATCHED = `g=$1; shift; if [ -n "$g" ]; then echo $$ > "$g/cgroup.procs" || exit 126; fi
exec 3<&0 </dev/null; (read -r _ <&3; [ -n "$g" ] && echo 1 > "$g/cgroup.kill"; kill -KILL 0) >/dev/null 2>&1 & exec 3<&-
"$0" "$@"; exit $?`;
/** Where the watch can run: a POSIX shell. */
const SHELL = '/bin/sh';

/** How a call is started: under the watch where a shell is, else nvidia-smi itself (its group still ended on every path but the engine's own death). */
function callOf(file: string, args: readonly string[], cgroup: string | null): { command: string; argv: string[] } {
  if (process.platform === 'win32' || !existsSync(SHELL)) return { command: file, argv: [...args] };
  return { command: SHELL, argv: ['-c', WATCHED, file, cgroup ?? '', ...args] };
}

/** Its answers are a line per card and per process: far below this. */
const OUTPUT_MAX = 1 << 20;

/** A read that failed; `timedOut`: nvidia-smi did not answer in time (a wedged driver, a loaded machine), rather than answering with an error. */
export class GpuReadError extends Error {
  constructor(
    message: string,
    readonly timedOut: boolean,
  ) {
    super(message);
  }
}

/** The executable `name` on `path` (PATH's dirs), as a shell would find it; null if none is there. */
export function findOnPath(name: string, path: string | undefined, platform: NodeJS.Platform = process.platform): string | null {
  const names = platform === 'win32' ? [`${name}.exe`, name] : [name];
  for (const dir of (path ?? '').split(delimiter)) {
    if (!dir) continue;
    for (const n of names) {
      const file = join(dir, n);
      try {
        if (!statSync(file).isFile()) continue;
        accessSync(file, constants.X_OK);
        return file;
      } catch {
        // Not here; the next directory.
      }
    }
  }
  return null;
}

export class NvidiaSmi {
  /** The calls under way, each the leader of its group, with its cgroup if it has one: what stop() ends. */
  private readonly live = new Map<ChildProcess, string | null>();
  private stopped = false;
  private calls = 0;

  constructor(
    readonly file: string,
    private readonly timeoutMs: number = ENGINE_DEFAULTS.gpuTimeoutMs,
    /** The engine's cgroup, where each call gets one of its own; null: process groups only. */
    private readonly cgroupBase: string | null = null,
  ) {}

  /** The one on PATH, or null: then no GPU is read and no process is started for one. */
  static find(env: NodeJS.ProcessEnv, timeoutMs?: number, cgroupBase: string | null = null): NvidiaSmi | null {
    const file = findOnPath('nvidia-smi', env.PATH ?? process.env.PATH);
    return file ? new NvidiaSmi(file, timeoutMs, cgroupBase) : null;
  }

  async read(): Promise<{ cards: GpuCard[]; apps: GpuApp[] }> {
    const [cards, apps] = await Promise.all([this.run(GPU_QUERY), this.run(APPS_QUERY)]);
    const parsed = parseCards(cards);
    if (parsed.length === 0) throw new GpuReadError('nvidia-smi listed no GPU', false);
    return { cards: parsed, apps: parseApps(apps) };
  }

  /** Ends every call under way with all it started; no read starts after. */
  stop(): void {
    this.stopped = true;
    for (const [child, cgroup] of this.live) end(child, cgroup);
    this.live.clear();
  }

  private run(args: readonly string[]): Promise<string> {
    if (this.stopped) return Promise.reject(new GpuReadError('nvidia-smi not asked: the engine is stopping', false));
    return new Promise((resolve, reject) => {
      const cgroup = this.cgroupBase === null ? null : makeCgroup(join(this.cgroupBase, `gpu-read-${++this.calls}`));
      const call = callOf(this.file, args, cgroup);
      // Its stdin is the watch's pipe: held by the engine alone, closed by the kernel when the engine dies.
      const child = spawn(call.command, call.argv, { detached: true, stdio: ['pipe', 'pipe', 'ignore'], windowsHide: true });
      this.live.set(child, cgroup);
      const chunks: Buffer[] = [];
      let size = 0;
      let settled = false;
      const settle = (error: GpuReadError | null) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        this.live.delete(child);
        end(child, cgroup);
        if (error) reject(error);
        else resolve(Buffer.concat(chunks).toString('utf8'));
      };
      const timer = setTimeout(() => settle(new GpuReadError(`nvidia-smi did not answer within ${this.timeoutMs} ms`, true)), this.timeoutMs);
      timer.unref();
      child.stdout!.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > OUTPUT_MAX) settle(new GpuReadError(`nvidia-smi failed: more than ${OUTPUT_MAX} bytes of output`, false));
        else chunks.push(chunk);
      });
      child.on('error', (error) => settle(new GpuReadError(`nvidia-smi failed: ${error.message.split('\n')[0]}`, false)));
      // Its answer is whole once it exits; a child it left holding the pipe is ended with the group.
      child.on('exit', (code, signal) => {
        if (code === 0 && child.stdout!.readableEnded) settle(null);
        else if (code === 0) child.stdout!.once('end', () => settle(null));
        else settle(new GpuReadError(`nvidia-smi failed: ${signal ? `ended by ${signal}` : `exit code ${code}`}`, false));
        // The group at once, so a child holding the pipe lets go; its cgroup goes with the settle (end()).
        signalGroup(child.pid!, 'SIGKILL');
      });
    });
  }
}

/** The call and everything in its group and its cgroup, killed; its pipe let go so no reader waits on it. */
function end(child: ChildProcess, cgroup: string | null): void {
  if (child.pid !== undefined) signalGroup(child.pid, 'SIGKILL');
  if (cgroup !== null) void removeCgroup(cgroup);
  child.stdout?.destroy();
  child.stdin?.destroy();
}
