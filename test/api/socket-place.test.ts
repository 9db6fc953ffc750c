// Where the socket goes when the data directory's path is too long for one: never at a name fixed
// in advance in a shared place. Another local user could make that name first; as the same user
// this test plants what they could (a folder open to all, a link to somewhere else), and the
// engine must start all the same, put its socket in a private place, and the CLI must find it.
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { hostEngine, type HostedEngine } from '../../electron/api/host.js';
import { ensureBuilt, lanes, tempDataDir } from '../support/daemon.js';
import { quietMachine } from '../support/machine.js';

const posix = process.platform !== 'win32';
/** The name the engine used to take in the temporary directory, which anyone could make first. */
const squatted = join(tmpdir(), `lanes-${process.getuid?.() ?? 0}`);

describe.runIf(posix)('the socket of a data directory whose path is too long for one', () => {
  const tmp = tempDataDir();
  let host: HostedEngine | null = null;
  const runtime = process.env.XDG_RUNTIME_DIR;
  const longDir = (name: string) => join(tmp.dir, `${name}-a-data-directory-with-a-long-name`.repeat(3));

  beforeAll(() => ensureBuilt());
  afterEach(async () => {
    await host?.close({ graceMs: 0 });
    host = null;
    rmSync(squatted, { recursive: true, force: true });
    if (runtime === undefined) delete process.env.XDG_RUNTIME_DIR;
    else process.env.XDG_RUNTIME_DIR = runtime;
  });
  afterAll(() => tmp.remove());

  /** Starts an engine for `dir`, checks its socket is private and reachable by the CLI, and returns it. */
  async function startAndReach(dir: string): Promise<HostedEngine> {
    host = await hostEngine({ machineReaders: quietMachine(), dataDir: dir, cores: 3, tickMs: 100, log: () => {} });
    expect(Buffer.byteLength(host.socket)).toBeLessThanOrEqual(103);
    expect(lstatSync(host.socket).isSocket()).toBe(true);
    const folder = lstatSync(dirname(host.socket));
    expect(folder.isDirectory() && !folder.isSymbolicLink()).toBe(true);
    expect(folder.uid).toBe(process.getuid!());
    expect(folder.mode & 0o077).toBe(0);
    const res = await lanes(['--data-dir', dir, 'status']);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    return host;
  }

  it('a folder planted at the old name, open to all, costs a new name, not a refused start', async () => {
    delete process.env.XDG_RUNTIME_DIR;
    mkdirSync(squatted, { recursive: true });
    chmodSync(squatted, 0o777);
    const h = await startAndReach(longDir('open'));
    expect(dirname(h.socket)).not.toBe(squatted);
    expect(basename(dirname(h.socket))).toMatch(/^lanes-[A-Za-z0-9]{6}$/);
    expect(readdirSync(squatted)).toEqual([]);
    // The folder made for it goes with the engine.
    const made = dirname(h.socket);
    await h.close({ graceMs: 0 });
    host = null;
    expect(existsSync(made)).toBe(false);
  });

  it('a link planted at the old name is never followed', async () => {
    delete process.env.XDG_RUNTIME_DIR;
    const victim = join(tmp.dir, 'victim');
    mkdirSync(victim, { mode: 0o700 });
    symlinkSync(victim, squatted);
    const h = await startAndReach(longDir('link'));
    // Not inside it (a fresh name may begin with the same characters: compare folders, not strings).
    expect(h.socket.startsWith(`${squatted}/`)).toBe(false);
    expect(readdirSync(victim)).toEqual([]);
  });

  it('uses the runtime directory the OS keeps private for the user, when it checks out', async () => {
    const run = join(tmp.dir, 'run');
    mkdirSync(run, { mode: 0o700 });
    process.env.XDG_RUNTIME_DIR = run;
    const h = await startAndReach(longDir('runtime'));
    if (process.platform === 'linux') expect(dirname(h.socket)).toBe(run);
  });

  it('passes over a runtime directory that is a link or open to others', async () => {
    const open = join(tmp.dir, 'run-open');
    mkdirSync(open);
    chmodSync(open, 0o755);
    const linked = join(tmp.dir, 'run-link');
    symlinkSync(open, linked);
    for (const run of [open, linked]) {
      process.env.XDG_RUNTIME_DIR = run;
      const h = await startAndReach(longDir(basename(run)));
      expect(dirname(h.socket)).not.toBe(run);
      expect(readdirSync(open)).toEqual([]);
      await h.close({ graceMs: 0 });
      host = null;
    }
  });

  it('the CLI will not follow a recorded socket out of a private place', async () => {
    const dir = longDir('record');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const shared = join(tmp.dir, 'shared');
    mkdirSync(shared);
    chmodSync(shared, 0o777);
    writeFileSync(join(dir, 'daemon.json'), JSON.stringify({ port: 1, pid: 1, url: 'http://127.0.0.1:1/', startedAt: 1, socket: join(shared, 'engine.sock') }), { mode: 0o600 });
    const res = await lanes(['--data-dir', dir, 'status']);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/will not talk to an engine through .*shared.*open to other users/);
    expect(statSync(shared).mode & 0o777).toBe(0o777);
  });
});
