// A redis-server of a test's own, on a free loopback port, in a directory of its own. The tests
// of shared lanes start one each (test/setup/provision.mjs makes sure the program is there); the
// benchmark starts one for BullMQ. It can be stopped and started again on the same port and
// directory, so a test can take Redis away mid-run and see what an append-only file kept.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

export interface RedisOptions {
  /** Write every change to an append-only file, synced each write: a restart keeps what was acknowledged. */
  appendonly?: boolean;
  /** `requirepass`: clients must give it. */
  password?: string;
}

export interface RedisServer {
  port: number;
  pid: number;
  url: string;
  /** Stops the server (SIGTERM, or SIGKILL with `hard`); its directory stays for a restart. */
  stop(hard?: boolean): Promise<void>;
  /** Starts it again on the same port and directory. */
  restart(): Promise<void>;
  /** Stops it for good and removes its directory. */
  remove(): Promise<void>;
}

export function findOnPath(program: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, program);
    if (dir && existsSync(candidate)) return candidate;
  }
  return null;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function launch(program: string, args: string[]): Promise<ChildProcess> {
  const child = spawn(program, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (out.includes('Ready to accept connections')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}) before it was ready:\n${out}`)));
  });
}

export async function startRedis(options: RedisOptions = {}): Promise<RedisServer> {
  const program = findOnPath('redis-server');
  if (!program) throw new Error('redis-server is not on PATH; install it (Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis)');
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'lanes-redis-'));
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--dir', dir];
  args.push(...(options.appendonly ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no']));
  if (options.password !== undefined) args.push('--requirepass', options.password);
  let child = await launch(program, args);
  const auth = options.password !== undefined ? `:${encodeURIComponent(options.password)}@` : '';
  const stop = (hard = false) =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill(hard ? 'SIGKILL' : 'SIGTERM');
    });
  return {
    port,
    get pid() {
      return child.pid!;
    },
    url: `redis://${auth}127.0.0.1:${port}`,
    stop,
    async restart() {
      child = await launch(program, args);
    },
    async remove() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
