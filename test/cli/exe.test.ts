// The standalone `lanes` executable an installed app carries, run as a person with no Node would
// run it: `env -i HOME=$HOME dist/exe/lanes …`, no PATH at all, against a real `lanes daemon`.
// It must answer as `node bin/lanes.js` does: same output, exit codes and data directory.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, lanes, ROOT, startDaemon, tempDataDir, type TestDaemon } from '../support/daemon.js';
import { ensureExe } from '../support/exe.js';

const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

describe('the standalone lanes executable', () => {
  let exe = '';
  let d: TestDaemon;
  const home = tempDataDir('lanes-home-');
  const bare = (args: string[], env: Record<string, string> = {}) => lanes(args, { program: exe, bareEnv: true, env: { HOME: home.dir, ...env } });
  const node = (args: string[], env: Record<string, string> = {}) => lanes(args, { env: { HOME: home.dir, ...env } });

  beforeAll(async () => {
    await ensureBuilt();
    exe = await ensureExe();
    d = await startDaemon();
  }, 120_000);
  afterAll(async () => {
    await d?.stop();
    home.remove();
  });

  it('prints the version with no PATH and no Node', async () => {
    const res = await bare(['--version']);
    expect(res).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('adds, waits for and shows the log of a job, and reads the status, from a real daemon', async () => {
    const added = await bare(['--data-dir', d.dataDir, 'add', '--json', '--', '/bin/sh', '-c', 'echo from-the-exe']);
    expect(added.code, added.stderr).toBe(0);
    const { id } = JSON.parse(added.stdout) as { id: number };
    const waited = await bare(['--data-dir', d.dataDir, 'wait', String(id)]);
    expect(waited.code, waited.stderr).toBe(0);
    expect(waited.stdout).toMatch(new RegExp(`^job ${id}: succeeded`));
    const log = await bare(['--data-dir', d.dataDir, 'log', String(id)]);
    expect(log).toMatchObject({ code: 0, stdout: 'from-the-exe\n' });
    const status = await bare(['--data-dir', d.dataDir, 'status', '--json']);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ ceiling: 2 });
    // LANES_DATA_DIR is read the same way.
    const viaEnv = await bare(['status', '--json'], { LANES_DATA_DIR: d.dataDir });
    expect(JSON.parse(viaEnv.stdout)).toMatchObject({ dataDir: JSON.parse(status.stdout).dataDir, pid: JSON.parse(status.stdout).pid });
  });

  it('answers as node bin/lanes.js does: output and exit codes', async () => {
    const failing = await node(['--data-dir', d.dataDir, 'add', '--json', '--', '/bin/sh', '-c', 'exit 3']);
    const { id } = JSON.parse(failing.stdout) as { id: number };
    await node(['--data-dir', d.dataDir, 'wait', String(id)]);
    const cases = [
      ['show', String(id)],
      ['wait', String(id)],
      ['jobs', '--json'],
      ['cap', 'worker'],
      ['no-such-command'],
      ['--help'],
    ];
    // The event sequence number moves with anything the engine announces between two calls.
    const unsequenced = (r: { code: number | null; stdout: string; stderr: string }) => ({ ...r, stdout: r.stdout.replace(/"seq":\d+/g, '"seq":0') });
    for (const args of cases) {
      const [a, b] = await Promise.all([bare(['--data-dir', d.dataDir, ...args]), node(['--data-dir', d.dataDir, ...args])]);
      expect(unsequenced(a), args.join(' ')).toEqual(unsequenced(b));
    }
    expect((await bare(['--data-dir', d.dataDir, 'wait', String(id)])).code).toBe(1);
    expect((await bare(['--data-dir', d.dataDir, 'cap', 'worker'])).code).toBe(2);
  });

  it('finds the same default data directory as the node CLI, and says in one line how to start an engine there', async () => {
    const [a, b] = await Promise.all([bare(['status']), node(['status'])]);
    expect(a.code).toBe(1);
    expect(a.stdout).toBe('');
    expect(a.stderr.trimEnd().split('\n')).toHaveLength(1);
    const dirOf = (text: string) => /no Lanes engine is running for (\S+) /.exec(text)?.[1];
    expect(dirOf(a.stderr)).toContain(home.dir);
    expect(dirOf(a.stderr)).toBe(dirOf(b.stderr));
    // The executable cannot run `lanes daemon`, so it names what it can do instead.
    expect(a.stderr).toMatch(/open Lanes from your applications, or run `lanes open`/);
    expect(b.stderr).toMatch(/`lanes daemon`/);
  });

  it('says where the engine runs when asked for `lanes daemon`, in one line, and starts nothing', async () => {
    const dir = join(home.dir, 'never');
    const res = await bare(['daemon', '--data-dir', dir]);
    expect(res.code).toBe(1);
    expect(res.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(res.stderr).toMatch(/runs no engine itself.*npm run daemon/);
    expect((await node(['status', '--data-dir', dir])).stderr).toMatch(/the directory does not exist/);
  });
});
