// The one harness for tests that drive Lanes from outside, used by the CLI and API tests (vitest)
// and the window's tests (Playwright): a throwaway data directory, the compiled CLI, and a real
// `lanes daemon` child process with a client from shared/ bound to it. Everything here waits for
// something to happen (a line printed, a process exiting); nothing sleeps for a fixed time.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readDaemonInfo, type DaemonInfo } from '../../electron/api/daemon-info.js';
import { connect } from '../../electron/cli/connect.js';
import { LanesClient } from '../../shared/client/client.js';
import { httpTransport } from '../../shared/client/http.js';
import type { RequestInput, RequestName, RequestOutput } from '../../shared/requests.js';
import { nodeHttpPort } from '../../electron/cli/node-http.js';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLI = join(ROOT, 'bin', 'lanes.js');
const BUILT = join(ROOT, 'dist', 'electron', 'cli', 'main.js');

/** Small machine, quick ticks: 2 cores, all of them working (a daemon knows nobody at the computer), so a ceiling of 2; a sizer pass every 100 ms. */
export const TEST_ENV = { LANES_CORES: '2', LANES_TICK_MS: '100' };

/**
 * A temporary directory, made when `dir` is first read: suites ask for one as they are declared,
 * and merely loading a file (`vitest list`) must leave nothing behind.
 */
export function tempDataDir(prefix = 'lanes-test-'): { readonly dir: string; remove(): void } {
  let dir: string | undefined;
  return {
    get dir() {
      return (dir ??= mkdtempSync(join(tmpdir(), prefix)));
    },
    remove: () => {
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (/\.(ts|cts|mts)$/.test(entry.name)) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function builtAt(): number {
  try {
    return statSync(BUILT).mtimeMs;
  } catch {
    return 0;
  }
}

/**
 * The CLI and the worker runtime run as compiled JavaScript, so child-process tests need a
 * current dist/. `npm test` builds first; when a test file is run on its own after an edit,
 * this compiles once (test files run in parallel, so a lock directory keeps it to one tsc).
 */
export async function ensureBuilt(): Promise<void> {
  const stale = () => builtAt() < Math.max(newestSource(join(ROOT, 'electron')), newestSource(join(ROOT, 'shared')));
  await buildOnce('.test-build-lock', stale, () => {
    const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.node.json'], { cwd: ROOT, encoding: 'utf8' });
    // tsc emits even with type errors elsewhere in the tree; only a missing CLI is fatal here.
    if (builtAt() === 0) throw new Error(`build failed:\n${tsc.stdout}${tsc.stderr}`);
    // The CLI as it ships: one bundled file (bin/lanes.js falls back to tsc's output without it).
    spawnSync(process.execPath, [join(ROOT, 'electron', 'cli', 'bundle.mjs')], { cwd: ROOT, encoding: 'utf8' });
  });
}

/**
 * Runs `build` when `stale` says so, once across test files running in parallel: a lock
 * directory in dist/ keeps it to one builder, and each waiter looks again once the lock goes.
 */
export async function buildOnce(lockName: string, stale: () => boolean, build: () => void): Promise<void> {
  if (!stale()) return;
  const lock = join(ROOT, 'dist', lockName);
  mkdirSync(join(ROOT, 'dist'), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // Someone else is building: wait for their lock to go, then see whether we still must.
      await new Promise((done) => setTimeout(done, 200));
      const held = statSync(lock, { throwIfNoEntry: false });
      // A lock older than any build is left from a run that died mid-build.
      if (held && Date.now() - held.mtimeMs > 120_000) rmSync(lock, { recursive: true, force: true });
    }
  }
  try {
    if (stale()) build();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `lanes ARGS…` to completion. */
export function lanes(args: string[], options: LanesRun = {}): Promise<CliResult> {
  const child = spawnLanes(args, options);
  return child.done;
}

export interface RunningCli {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the first stdout line matching `pattern` (already printed or still to come). */
  line(pattern: RegExp): Promise<string>;
  done: Promise<CliResult>;
}

export interface LanesRun {
  env?: Record<string, string>;
  cwd?: string;
  /** Another `lanes` to run, e.g. the standalone executable; default: `node bin/lanes.js`. */
  program?: string;
  /** Only `env` and HOME, as `env -i HOME=$HOME` gives: no PATH, no Node anywhere. */
  bareEnv?: boolean;
}

export function spawnLanes(args: string[], options: LanesRun = {}): RunningCli {
  const [file, argv] = options.program ? [options.program, args] : [process.execPath, [CLI, ...args]];
  const env = options.bareEnv ? { HOME: process.env.HOME ?? '', ...options.env } : { ...process.env, ...TEST_ENV, ...options.env };
  const child = spawn(file, argv, {
    cwd: options.cwd ?? ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const waiters: { pattern: RegExp; found: (line: string) => void }[] = [];
  const check = () => {
    for (const w of [...waiters]) {
      const hit = out.split('\n').find((l) => w.pattern.test(l));
      if (hit !== undefined) {
        waiters.splice(waiters.indexOf(w), 1);
        w.found(hit);
      }
    }
  };
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    check();
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const done = new Promise<CliResult>((resolve) => child.on('close', (code) => resolve({ code, stdout: out, stderr: err })));
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    line: (pattern) =>
      new Promise<string>((found, reject) => {
        waiters.push({ pattern, found });
        check();
        void done.then(() => reject(new Error(`lanes ${args.join(' ')} exited without printing ${pattern}\nstdout: ${out}\nstderr: ${err}`)));
      }),
    done,
  };
}

export interface TestDaemon {
  dataDir: string;
  info: DaemonInfo;
  port: number;
  token: string;
  /** `http://127.0.0.1:PORT` */
  base: string;
  /** The window's address, token in the fragment, as `lanes open` prints it. */
  url: string;
  process: RunningCli;
  /** The engine through the one client, over its socket, as the CLI talks to it. */
  client: LanesClient;
  api<K extends RequestName>(name: K, input: RequestInput<K>): Promise<RequestOutput<K>>;
  /** Runs a CLI command against this daemon. */
  cli(...args: string[]): Promise<CliResult>;
  spawn(...args: string[]): RunningCli;
  /** SIGTERM, and wait for the graceful exit; resolves with its exit code. */
  stop(): Promise<number | null>;
}

export interface DaemonOptions {
  /** A data directory to use (a restart); default: a fresh one. */
  dataDir?: string;
  /** More `lanes daemon` arguments, e.g. ['--grace', '0']. */
  args?: string[];
  /** Environment over TEST_ENV, e.g. { LANES_CORES: '8' }. */
  env?: Record<string, string>;
}

/** A client of the engine at `port` with `token`, over the same HTTP port the CLI uses. */
export function httpClient(port: number, token: string): LanesClient {
  return new LanesClient(httpTransport(nodeHttpPort(() => ({ host: '127.0.0.1', port })), () => ({ Authorization: `Bearer ${token}` })));
}

/** Starts `lanes daemon` and resolves once it has printed its window URL. */
export async function startDaemon(options: DaemonOptions = {}): Promise<TestDaemon> {
  await ensureBuilt();
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'lanes-daemon-'));
  const env = options.env ?? {};
  const proc = spawnLanes(['daemon', '--data-dir', dataDir, ...(options.args ?? [])], { env });
  await proc.line(/^Window: http:\/\/127\.0\.0\.1:\d+\//).catch((e: Error) => {
    throw new Error(`lanes daemon did not start: ${e.message}`);
  });
  const info = readDaemonInfo(dataDir);
  if (!info) throw new Error('lanes daemon printed its address but daemon.json is missing');
  const owner = connect(dataDir);
  const { url } = await owner.window();
  const token = new URL(url).hash.replace(/^#token=/, '');
  const client = owner.client;
  const cliEnv = { ...env };
  return {
    dataDir,
    info,
    port: info.port,
    token,
    base: `http://127.0.0.1:${info.port}`,
    url,
    process: proc,
    client,
    api: (name, input) => client.call(name, input),
    cli: (...args) => lanes(['--data-dir', dataDir, ...args], { env: cliEnv }),
    spawn: (...args) => spawnLanes(['--data-dir', dataDir, ...args], { env: cliEnv }),
    async stop() {
      if (proc.child.exitCode === null && proc.child.signalCode === null) {
        proc.child.kill('SIGTERM');
        // A daemon that will not stop must not hang the suite.
        const killer = setTimeout(() => proc.child.kill('SIGKILL'), 15_000);
        const { code } = await proc.done;
        clearTimeout(killer);
        return code;
      }
      return (await proc.done).code;
    },
  };
}
