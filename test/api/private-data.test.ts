// The key to run commands never reaches a stranger: the data directory is refused when another
// user owns it or can write to it, or to a directory above it (as ssh's StrictModes asks), and
// made private when they can only read it; nothing in it is
// written through a link; and the CLI talks only to a socket of its own user's, so a port or a
// daemon.json left behind after a crash leads it nowhere.
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostEngine } from '../../electron/api/host.js';
import { ensureBuilt, lanes, tempDataDir } from '../support/daemon.js';
import { jobsFinished } from '../support/engine.js';
import { quietMachine } from '../support/machine.js';

const posix = process.platform !== 'win32';
const root = process.getuid?.() === 0;

describe.runIf(posix)('the data directory', () => {
  const tmp = tempDataDir();
  beforeAll(() => ensureBuilt());
  afterAll(() => tmp.remove());

  const open = async (dir: string, log: string[] = []) => {
    const host = await hostEngine({ machineReaders: quietMachine(), dataDir: dir, cores: 3, tickMs: 100, log: (l) => log.push(l) });
    return host;
  };

  it('one readable by others is made private, and says so', async () => {
    const dir = join(tmp.dir, 'readable');
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    const log: string[] = [];
    const host = await open(dir, log);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(log.join('\n')).toMatch(/made .*readable.* private \(mode 700\)/);
    for (const file of ['lanes.db', 'daemon.json', 'engine.json', 'engine.sock']) expect(statSync(join(dir, file)).mode & 0o077, file).toBe(0);
    await host.close({ graceMs: 0 });
  });

  it('one others can write to is refused with how to fix it, and left as it was', async () => {
    const dir = join(tmp.dir, 'writable');
    mkdirSync(dir);
    chmodSync(dir, 0o775);
    await expect(open(dir)).rejects.toThrow(/can be written by other users \(mode 775\).*chmod 700/);
    expect(statSync(dir).mode & 0o777).toBe(0o775);
    expect(existsSync(join(dir, 'lanes.db'))).toBe(false);
  });

  it('one inside a directory others can write to is refused, naming it and the chmod, and nothing is made', async () => {
    for (const mode of [0o777, 0o775, 0o757]) {
      const parent = join(tmp.dir, `open-${mode.toString(8)}`);
      mkdirSync(parent);
      chmodSync(parent, mode);
      const dir = join(parent, 'deeper', 'data');
      const expected = new RegExp(`${parent}, above ${dir}, can be written by other users \\(mode ${mode.toString(8)}\\) and is not sticky.*chmod go-w "${parent}"`);
      await expect(open(dir)).rejects.toThrow(expected);
      expect(existsSync(join(parent, 'deeper'))).toBe(false);
      // The CLI will not talk to an engine through it either.
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const res = await lanes(['--data-dir', dir, 'status']);
      expect(res.code).toBe(1);
      expect(res.stderr).toMatch(expected);
    }
  });

  it('one inside a sticky directory open to all (like /tmp) is fine', async () => {
    const parent = join(tmp.dir, 'sticky');
    mkdirSync(parent);
    chmodSync(parent, 0o1777);
    const host = await open(join(parent, 'data'));
    expect(statSync(join(parent, 'data')).mode & 0o777).toBe(0o700);
    await host.close({ graceMs: 0 });
  });

  it('a link on the way is checked where it leads', async () => {
    const parent = join(tmp.dir, 'open-behind-link');
    mkdirSync(parent);
    chmodSync(parent, 0o777);
    symlinkSync(parent, join(tmp.dir, 'via'));
    await expect(open(join(tmp.dir, 'via', 'data'))).rejects.toThrow(/open-behind-link, above .*, can be written by other users/);
  });

  it.runIf(root)('one inside a directory another user owns is refused', async () => {
    const parent = join(tmp.dir, 'their-parent');
    mkdirSync(parent, { mode: 0o755 });
    chownSync(parent, 65534, 65534);
    await expect(open(join(parent, 'data'))).rejects.toThrow(/their-parent, above .*, belongs to another user \(uid 65534\)/);
  });

  it.runIf(root)('one another user owns is refused', async () => {
    const dir = join(tmp.dir, 'theirs');
    mkdirSync(dir, { mode: 0o700 });
    chownSync(dir, 65534, 65534);
    await expect(open(dir)).rejects.toThrow(/belongs to another user \(uid 65534\)/);
  });

  it('files planted as links are replaced, never written through', async () => {
    const dir = join(tmp.dir, 'links');
    mkdirSync(join(dir, 'logs'), { recursive: true, mode: 0o700 });
    const victim = join(tmp.dir, 'victim.txt');
    writeFileSync(victim, 'untouched');
    for (const name of ['engine.json', 'daemon.json']) symlinkSync(victim, join(dir, name));
    // A job's log folder set up in advance as a link to somewhere else, holding its log file as a
    // link to yet another place.
    const elsewhere = join(tmp.dir, 'elsewhere');
    mkdirSync(elsewhere);
    symlinkSync(victim, join(elsewhere, '1.stdout.log'));
    symlinkSync(elsewhere, join(dir, 'logs', '0'));
    const host = await open(dir);
    const { id } = await host.engine.request('addJob', { argv: ['echo', 'through the link?'] });
    const [job] = await jobsFinished(host.engine, [id]);
    expect(job!.state).toBe('succeeded');
    expect(readFileSync(victim, 'utf8')).toBe('untouched');
    expect(readdirSync(elsewhere)).toEqual(['1.stdout.log']);
    expect(lstatSync(join(dir, 'logs', '0')).isSymbolicLink()).toBe(false);
    for (const name of ['engine.json', 'daemon.json']) expect(lstatSync(join(dir, name)).isSymbolicLink(), name).toBe(false);
    expect((await host.engine.request('logTail', { id })).text).toBe('through the link?\n');
    await host.close({ graceMs: 0 });
  });
});

describe.runIf(posix)('the CLI', () => {
  const tmp = tempDataDir();
  beforeAll(() => ensureBuilt());
  afterAll(() => tmp.remove());

  it('sends nothing to a port named by a daemon.json its engine left when it died', async () => {
    const dir = join(tmp.dir, 'died');
    mkdirSync(dir, { mode: 0o700 });
    // Someone else listens on the port the dead engine had.
    let connections = 0;
    const stranger = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((done) => stranger.listen(0, '127.0.0.1', done));
    const port = (stranger.address() as { port: number }).port;
    writeFileSync(join(dir, 'daemon.json'), JSON.stringify({ port, pid: process.pid, url: `http://127.0.0.1:${port}/`, startedAt: 1, socket: join(dir, 'engine.sock') }), { mode: 0o600 });
    for (const args of [['status'], ['open'], ['wait', '1']]) {
      const res = await lanes(['--data-dir', dir, ...args]);
      expect(res.code, args.join(' ')).toBe(1);
      expect(res.stderr).toMatch(/no Lanes engine is running/);
    }
    await new Promise<void>((done) => stranger.close(() => done()));
    expect(connections).toBe(0);
  });

  it('keeps the socket private when the data directory’s path is too long for one', async () => {
    // A socket path longer than the OS holds would be cut short, landing somewhere else.
    const dir = join(tmp.dir, 'a-data-directory-with-a-long-name'.repeat(3));
    const host = await hostEngine({ machineReaders: quietMachine(), dataDir: dir, cores: 3, tickMs: 100, log: () => {} });
    try {
      expect(Buffer.byteLength(host.socket)).toBeLessThanOrEqual(103);
      expect(lstatSync(host.socket).isSocket()).toBe(true);
      expect(statSync(dirname(host.socket)).mode & 0o077).toBe(0);
      const res = await lanes(['--data-dir', dir, 'status']);
      expect(res.stderr).toBe('');
      expect(res.code).toBe(0);
    } finally {
      await host.close({ graceMs: 0 });
    }
  });

  it('refuses a data directory others can write to, before connecting to anything in it', async () => {
    const dir = join(tmp.dir, 'shared');
    mkdirSync(dir);
    chmodSync(dir, 0o777);
    const res = await lanes(['--data-dir', dir, 'status']);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/will not talk to an engine through .*can be written by other users/);
  });
});
