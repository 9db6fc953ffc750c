// A real `lanes daemon` in a temporary data directory, for one test. The window's address comes
// from the daemon's own output; the CLI and the API are driven exactly as a person's scripts would.
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { once } from 'node:events';
import type { RequestInput, RequestName, RequestOutput } from '../../shared/requests.js';
import { httpTarget } from '../../shared/http.js';

const BIN = resolve('bin/lanes.js');

export interface DaemonOptions {
  /** Sizer tick; short so idle lanes shrink within a test. */
  tickMs?: number;
  /** Logical cores the engine believes it has: the ceiling is one less. */
  cores?: number;
  /** Reuse a data directory and port (a restart); default: a fresh directory, a free port. */
  dataDir?: string;
  port?: number;
}

export interface Daemon {
  dataDir: string;
  port: number;
  token: string;
  /** The window's address, token in the fragment. */
  url: string;
  cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
  api<K extends RequestName>(name: K, input: RequestInput<K>): Promise<RequestOutput<K>>;
  /** Stops the engine gracefully, keeping its data directory. */
  halt(): Promise<void>;
  /** Stops it and removes the data directory. */
  stop(): Promise<void>;
}

export async function startDaemon(options: DaemonOptions = {}): Promise<Daemon> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'lanes-ui-'));
  const env = {
    ...process.env,
    LANES_DATA_DIR: dataDir,
    LANES_TICK_MS: String(options.tickMs ?? 300),
    LANES_CORES: String(options.cores ?? 8),
  };
  const portArgs = options.port !== undefined ? ['--port', String(options.port)] : [];
  const child = spawn(process.execPath, [BIN, 'daemon', '--grace', '2', ...portArgs], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stderr.on('data', (b: Buffer) => (output += b.toString()));
  const url = await new Promise<string>((done, fail) => {
    child.stdout.on('data', (b: Buffer) => {
      output += b.toString();
      const m = /(http:\/\/127\.0\.0\.1:\d+\/#token=\w+)/.exec(output);
      if (m?.[1]) done(m[1]);
    });
    child.once('exit', (code) => fail(new Error(`lanes daemon exited (${code}) before printing its address:\n${output}`)));
  });
  const info = JSON.parse(readFileSync(join(dataDir, 'daemon.json'), 'utf8')) as { port: number };
  const token = readFileSync(join(dataDir, 'token'), 'utf8').trim();
  const base = `http://127.0.0.1:${info.port}`;

  return {
    dataDir,
    port: info.port,
    token,
    url,
    cli: (...args) =>
      new Promise((done) => {
        execFile(process.execPath, [BIN, ...args], { env }, (err, stdout, stderr) => {
          const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
          done({ code, stdout, stderr });
        });
      }),
    async api(name, input) {
      const target = httpTarget(name, input);
      const res = await fetch(base + target.url, {
        method: target.method,
        headers: { Authorization: `Bearer ${token}`, ...(target.body ? { 'Content-Type': 'application/json' } : {}) },
        body: target.body ? JSON.stringify(target.body) : undefined,
      });
      const body: unknown = await res.json();
      if (!res.ok) throw new Error(`${name}: HTTP ${res.status} ${JSON.stringify(body)}`);
      return body as RequestOutput<typeof name>;
    },
    halt: () => stopChild(child),
    async stop() {
      await stopChild(child);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const killer = setTimeout(() => child.kill('SIGKILL'), 8_000);
  await once(child, 'exit');
  clearTimeout(killer);
}
