// A full disk is ridden out: the engine stays up, refuses new work with a 507 that says which
// disk is full, keeps running jobs' records consistent, stops their logs with a mark, and carries
// on when there is room again. The disk is a real one: a small tmpfs, which needs root to mount.
import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '../../shared/model.js';
import { startDaemon, tempDataDir, type TestDaemon } from '../support/daemon.js';
import { recordEvents, type EventRecorder } from '../support/events.js';
import { raw } from '../support/http.js';

/** A 24 MiB tmpfs, or why there is none (the test says so when it skips). */
function mountSmallDisk(): { dir: string } | { why: string } {
  if (process.platform !== 'linux') return { why: 'a tmpfs of a chosen size is a Linux thing' };
  if (process.getuid?.() !== 0) return { why: 'mounting a small disk needs root' };
  const dir = mkdtempSync(join(tmpdir(), 'lanes-small-disk-'));
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=24m,mode=0700', 'tmpfs', dir], { encoding: 'utf8' });
  if (mounted.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    return { why: `this machine would not mount a tmpfs: ${mounted.stderr.trim()}` };
  }
  return { dir };
}

/** Fills what is left of the disk; returns the file holding it. */
function fill(dir: string): string {
  const file = join(dir, 'filler');
  const fd = openSync(file, 'w');
  const block = Buffer.alloc(64 * 1024, 1);
  try {
    for (;;) if (writeSync(fd, block) < block.length) break;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
  return file;
}

// Mounted in beforeAll, not when the file is loaded: listing the tests (`vitest list`) must leave
// no mount and no directory behind. Whether this machine lets us mount one is only known by
// trying, so the test skips itself, saying why, when the mount is refused.
describe('a full disk', () => {
  let disk: { dir: string } | { why: string } = { why: 'not mounted' };
  let dataDir = '';
  let gates: { dir: string; remove(): void } | undefined;
  let daemon: TestDaemon;
  let events: EventRecorder | undefined;

  beforeAll(async () => {
    disk = mountSmallDisk();
    if ('why' in disk) return;
    dataDir = join(disk.dir, 'data');
    mkdirSync(dataDir, { mode: 0o700 });
    gates = tempDataDir('lanes-gate-');
    daemon = await startDaemon({ dataDir });
    events = await recordEvents(daemon.client);
  });
  afterAll(async () => {
    events?.close();
    if (daemon) expect(await daemon.stop()).toBe(0);
    if ('dir' in disk) {
      spawnSync('umount', [disk.dir]);
      rmSync(disk.dir, { recursive: true, force: true });
    }
    gates?.remove();
  });

  const reaches = (id: number, state: Job['state']) => events!.next((e) => e.type === 'job' && e.data.id === id && e.data.state === state);

  it('is ridden out: new work refused with 507, the running job recorded, its log marked, and all resumes when there is room', async (ctx) => {
    if ('why' in disk) return ctx.skip(`disk-full test skipped: ${disk.why}`);
    const root = disk.dir;
    const gate = join(gates!.dir, 'go');
    // Prints while it waits for the disk to fill, then 3 MB: more than the disk has left.
    const script = `while [ ! -e '${gate}' ]; do echo still going; sleep 0.05; done; head -c 3000000 /dev/zero | tr '\\0' x; echo; echo finished`;
    const { id } = await daemon.api('addJob', { argv: ['sh', '-c', script] });
    const following = daemon.spawn('log', String(id), '--follow');
    await following.line(/still going/);

    const filler = fill(root);
    writeFileSync(gate, '');
    // The job ends (its output stopped at the full disk, not the job); its record waits for room.
    const refused = await raw(daemon.port, { method: 'POST', path: '/api/jobs', headers: { Authorization: `Bearer ${daemon.token}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ argv: ['true'] }) });
    const cli = await daemon.cli('add', '--', 'true');
    const status = await daemon.cli('status');

    // Whether the refusals above came while the job still ran or after: both must have been refused.
    expect(refused.status).toBe(507);
    expect(refused.json).toMatchObject({ error: { code: 'insufficient_storage' } });
    expect((refused.json as { error: { message: string } }).error.message).toContain(`the disk holding ${dataDir} is full`);
    expect(cli.code).toBe(1);
    expect(cli.stderr).toContain('is full');
    expect(cli.stdout).toBe('');
    expect(status.code).toBe(0);

    rmSync(filler);
    const done = await reaches(id, 'succeeded');
    expect(done.type === 'job' && done.data.exitCode).toBe(0);
    await following.done;
    const log = (await daemon.cli('log', String(id))).stdout;
    expect(log).toMatch(/output after this point was not kept: the disk is full/);
    expect(log).not.toContain('finished');

    // Room again: work is taken and runs.
    const after = await daemon.cli('add', '--', 'true');
    expect(after.code, after.stderr).toBe(0);
    await reaches(Number(after.stdout), 'succeeded');
    expect(daemon.process.child.exitCode).toBeNull();
    const check = await daemon.api('status', {});
    expect(check.lanes.find((l) => l.name === 'worker')?.failed).toBe(0);
  });
});
