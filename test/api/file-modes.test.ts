// Every file the engine makes is its owner's alone, whoever makes it: Lanes' own, SQLite's side
// files (engine.lock-journal, the WAL), the socket, the logs. Listed after a busy run of a real
// `lanes daemon`, which runs under umask 077 while its jobs make files under the user's umask.
import { lstatSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startDaemon, tempDataDir } from '../support/daemon.js';

const posix = process.platform !== 'win32';

/** Every entry under `dir` with its permission bits, as `path mode` lines. */
function modes(dir: string, base = dir): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const st = lstatSync(path);
    out.push(`${path.slice(base.length + 1)} ${(st.mode & 0o777).toString(8)}${st.isDirectory() ? '/' : ''}`);
    if (st.isDirectory()) out.push(...modes(path, base));
  }
  return out.sort();
}

describe.runIf(posix)('the data directory after a busy run', () => {
  const tmp = tempDataDir();
  afterAll(() => tmp.remove());

  it('holds nothing but mode 600 files and mode 700 folders, while the jobs keep their user’s umask', async () => {
    // The umask a person's shell would give `lanes daemon`: what their jobs should get.
    const userMask = process.umask(0o022);
    const dataDir = join(tmp.dir, 'data');
    const work = join(tmp.dir, 'work');
    mkdirSync(work);
    const daemon = await startDaemon({ dataDir });
    process.umask(userMask);
    try {
      const { ids } = await daemon.api('addJobs', {
        jobs: [
          ...Array.from({ length: 12 }, (_, i) => ({ shell: `echo out ${i}; echo err ${i} >&2; touch made-${i}`, cwd: work })),
          { shell: 'exit 3', cwd: work },
          { shell: 'sleep 30', cwd: work },
        ],
      });
      await daemon.api('cancel', { id: ids.at(-1)! });
      await daemon.cli('wait', ...ids.map(String));
      const states = await Promise.all(ids.map(async (id) => (await daemon.api('job', { id })).state));
      expect(states).toEqual([...Array(12).fill('succeeded'), 'failed', 'cancelled']);
      const running = modes(dataDir);
      expect(await daemon.stop()).toBe(0);
      for (const list of [running, modes(dataDir)]) {
        const wrong = list.filter((line) => !/ 600$| 700\/$/.test(line));
        expect(wrong, list.join('\n')).toEqual([]);
      }
      // SQLite's rollback journal for the lock is among them, made private from its start.
      expect(running.some((line) => line.startsWith('engine.lock-journal '))).toBe(true);
      // What a job makes is made as its user would have: the engine's umask is not theirs.
      expect(statSync(join(work, 'made-0')).mode & 0o777).toBe(0o666 & ~userMask);
    } finally {
      await daemon.stop();
    }
  });
});
