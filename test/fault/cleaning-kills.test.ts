// Cleaning, killed: a real `lanes daemon` is sent SIGKILL 15 times, each time the moment its
// cleaning pass removes its first log file (the pass is then between the rows it removed and the
// files it has not yet), then started once more and left alone. That quiet run must leave no log
// file of a job that is gone, and a data directory no larger than before the cleaning began.
import { watch, type FSWatcher } from 'node:fs';
import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startDaemon, tempDataDir, type TestDaemon } from '../support/daemon.js';
import { recordEvents } from '../support/events.js';
import { waitFor } from '../support/poll.js';

const JOBS = 3_000;
const KILLS = 15;

/** Every file under `dir`, with the bytes it takes on the disk (a running engine may remove one as it is looked at). */
function files(dir: string): { path: string; bytes: number }[] {
  let entries;
  try {
    entries = readdirSync(dir, { recursive: true, withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((e) => e.isFile())
    .flatMap((e) => {
      const path = join(e.parentPath, e.name);
      const s = lstatSync(path, { throwIfNoEntry: false });
      return s ? [{ path, bytes: s.blocks * 512 }] : [];
    });
}
const size = (dir: string) => files(dir).reduce((n, f) => n + f.bytes, 0);
const logFiles = (dir: string) => files(join(dir, 'logs')).map((f) => f.path);

/** Resolves at the first file removed from any of the log folders there are now. */
function firstRemoval(dataDir: string): { removed: Promise<void>; close(): void } {
  const watchers: FSWatcher[] = [];
  const removed = new Promise<void>((resolve) => {
    const logs = join(dataDir, 'logs');
    for (const shard of readdirSync(logs)) {
      watchers.push(watch(join(logs, shard), (event) => event === 'rename' && resolve()));
    }
  });
  return { removed, close: () => watchers.forEach((w) => w.close()) };
}

describe.runIf(process.platform === 'linux')('kill -9 during cleaning passes', () => {
  const tmp = tempDataDir('lanes-clean-kills-');
  let daemon: TestDaemon | undefined;
  afterAll(async () => {
    await daemon?.stop();
    tmp.remove();
  });

  it(`${KILLS} kills during cleaning, then one quiet run: no log file whose job is gone, and the data directory no larger than before`, async () => {
    // The jobs, each leaving one log file, run with the default keep: none is cleaned yet.
    daemon = await startDaemon({ dataDir: tmp.dir });
    const events = await recordEvents(daemon.client);
    const finished = new Set<number>();
    const allDone = events.next((e) => {
      if (e.type === 'job' && e.data.state === 'succeeded') finished.add(e.data.id);
      return finished.size === JOBS;
    }, 300_000);
    const { ids } = await daemon.api('addJobs', { jobs: Array.from({ length: JOBS }, (_, i) => ({ shell: `echo job-${i}`, maxAttempts: 1 })) });
    await allDone;
    events.close();
    expect(await daemon.stop()).toBe(0);
    expect(logFiles(tmp.dir).length).toBe(JOBS);
    const before = size(tmp.dir);

    // Every job is past a keep of 1 s: each run's first pass starts removing them, and is killed.
    let kills = 0;
    for (; kills < KILLS && logFiles(tmp.dir).length > 0; kills++) {
      const watching = firstRemoval(tmp.dir);
      daemon = await startDaemon({ dataDir: tmp.dir, env: { LANES_KEEP: '1s' } });
      await watching.removed;
      daemon.process.child.kill('SIGKILL');
      await daemon.process.done;
      watching.close();
    }
    expect(kills).toBe(KILLS);
    // Killed that often, a run's removed jobs were left with their files on the disk.
    const left = logFiles(tmp.dir).length;
    expect(left).toBeGreaterThan(0);

    // One quiet run: what the killed ones left is finished, and nothing of a gone job stays.
    daemon = await startDaemon({ dataDir: tmp.dir, env: { LANES_KEEP: '1s' } });
    await waitFor(() => logFiles(tmp.dir).length === 0, `no log files left (${left} after the kills)`, 60_000, 100);
    await waitFor(() => size(tmp.dir) <= before, `the data directory back within ${before} bytes`, 60_000, 100);
    for (const id of [ids[0]!, ids[JOBS - 1]!]) {
      const wait = await daemon.cli('wait', String(id));
      expect([wait.code, wait.stdout]).toEqual([0, `job ${id}: succeeded\n`]);
    }
    expect(await daemon.stop()).toBe(0);
    expect(size(tmp.dir)).toBeLessThanOrEqual(before);
  }, 600_000);
});
