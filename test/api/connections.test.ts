// A flood of idle, unauthenticated connections cannot take the engine's file descriptors: with
// the 256 descriptors a macOS app gets, 300 sockets that never send a byte leave the owner's
// socket answering at once and the window's port answering again within seconds.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpClient, startDaemon, tempDataDir, type TestDaemon } from '../support/daemon.js';

const canLimit = process.platform === 'linux' && spawnSync('prlimit', ['--version']).status === 0;

describe.skipIf(!canLimit)('idle connections, under a limit of 256 descriptors', () => {
  const tmp = tempDataDir();
  let daemon: TestDaemon;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    daemon = await startDaemon({ dataDir: tmp.dir });
    const pid = daemon.process.child.pid!;
    const set = spawnSync('prlimit', ['--pid', String(pid), '--nofile=256:256'], { encoding: 'utf8' });
    expect(set.status, set.stderr).toBe(0);
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    expect(await daemon?.stop()).toBe(0);
    tmp.remove();
  });

  it('keeps the socket answering while 300 idle sockets are open, then closes them and the port answers again', async () => {
    const closed: Promise<void>[] = [];
    for (let i = 0; i < 300; i++) {
      const s = connect(daemon.port, '127.0.0.1');
      s.on('error', () => {});
      sockets.push(s);
      closed.push(new Promise((done) => s.once('close', () => done())));
    }
    await Promise.all(sockets.map((s) => new Promise<void>((done) => (s.connecting ? s.once('connect', () => done()).once('close', () => done()) : done()))));

    const status = await daemon.cli('status');
    expect(status.stderr).toBe('');
    expect(status.code).toBe(0);
    const open = readdirSync(`/proc/${daemon.process.child.pid}/fd`).length;
    expect(open).toBeLessThan(256);

    // None is kept: over the cap at once, the rest when their headers never come.
    await Promise.all(closed);
    expect((await httpClient(daemon.port, daemon.token).call('status', {})).lanes.length).toBeGreaterThan(0);
    expect(daemon.process.stderr()).not.toMatch(/EMFILE/);
  });
});
