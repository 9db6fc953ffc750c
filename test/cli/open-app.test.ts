// `lanes open` with no engine running starts the installed app and prints its window once the
// engine answers. Where the app is looked for is a table; the start itself is real: LANES_APP
// points at a stand-in for the app (a script that starts a real engine, as the app would).
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDaemonInfo } from '../../electron/api/daemon-info.js';
import { appPlaces, type AppLookup } from '../../electron/cli/find-app.js';
import { ensureBuilt, lanes, ROOT, tempDataDir } from '../support/daemon.js';
import { ensureExe } from '../support/exe.js';

const look = (change: Partial<AppLookup>): string[] => appPlaces({ platform: 'linux', exe: null, env: {}, home: '/home/ana', ...change }).map((l) => l.where);

describe('where lanes open looks for the app', () => {
  it.each<[string, Partial<AppLookup>, string[]]>([
    ['the deb: beside the standalone lanes', { exe: '/opt/Lanes/resources/bin/lanes' }, ['/opt/Lanes/lanes-app']],
    ['a checkout on Linux: where the deb puts it', {}, ['/opt/Lanes/lanes-app']],
    ['macOS: the bundle holding this lanes, then /Applications', { platform: 'darwin', exe: '/Users/ana/Apps/Lanes.app/Contents/Resources/bin/lanes' }, ['/Users/ana/Apps/Lanes.app', '/Applications/Lanes.app', '/home/ana/Applications/Lanes.app']],
    ['Windows: beside resources, then the per-user install', { platform: 'win32', exe: 'C:\\Users\\ana\\AppData\\Local\\Programs\\lanes\\resources\\bin\\lanes.exe', env: { LOCALAPPDATA: 'C:\\Users\\ana\\AppData\\Local' } }, ['C:\\Users\\ana\\AppData\\Local\\Programs\\lanes\\lanes-app.exe']],
    ['LANES_APP, wherever it is', { env: { LANES_APP: '/srv/lanes/lanes-app' } }, ['/srv/lanes/lanes-app']],
  ])('%s', (_, lookup, places) => {
    expect(look(lookup)).toEqual(places);
  });

  it('starts a macOS bundle with open -a, anything else as itself', () => {
    expect(appPlaces({ platform: 'darwin', exe: null, env: {}, home: '/h' })[0]).toEqual({ where: '/Applications/Lanes.app', command: 'open', args: ['-a', '/Applications/Lanes.app'] });
    expect(appPlaces({ platform: 'linux', exe: null, env: {}, home: '/h' })[0]).toMatchObject({ command: '/opt/Lanes/lanes-app', args: [] });
  });
});

describe('lanes open with no engine running', () => {
  const tmp = tempDataDir();
  const app = join(tmp.dir, 'lanes-app');
  const started: string[] = [];
  let exe = '';

  beforeAll(async () => {
    await ensureBuilt();
    exe = await ensureExe();
    // The stand-in app: what the desktop app does at start, an engine on LANES_DATA_DIR.
    writeFileSync(app, `#!/bin/sh\nexec "${process.execPath}" "${join(ROOT, 'bin', 'lanes.js')}" daemon --data-dir "$LANES_DATA_DIR" >/dev/null 2>&1\n`);
    chmodSync(app, 0o755);
  }, 120_000);
  afterAll(async () => {
    for (const dir of started) {
      const info = readDaemonInfo(dir);
      if (info) process.kill(info.pid, 'SIGTERM');
    }
    // Give each a bounded moment to remove its files before the folder goes.
    for (const dir of started) for (let i = 0; i < 100 && readDaemonInfo(dir); i++) await new Promise((r) => setTimeout(r, 100));
    tmp.remove();
  });

  it.each(['node bin/lanes.js', 'the standalone lanes'])('%s starts the app and prints its window', async (which) => {
    const dir = join(tmp.dir, which.replace(/\W+/g, '-'));
    started.push(dir);
    const env = { LANES_APP: app, LANES_CORES: '3' };
    const res = await lanes(['open', '--data-dir', dir], which === 'node bin/lanes.js' ? { env } : { program: exe, bareEnv: true, env });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toBe(`Starting Lanes (${app}) …\n`);
    expect(res.stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=\w+\n$/);
    // The engine it started is the one that now answers there.
    const status = await lanes(['status', '--json', '--data-dir', dir]);
    expect(JSON.parse(status.stdout)).toMatchObject({ dataDir: dir });
  });

  it('says how to start one when no app is found either', async () => {
    const res = await lanes(['open', '--data-dir', join(tmp.dir, 'none')], { env: { LANES_APP: join(tmp.dir, 'not-installed') } });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^lanes: no Lanes engine is running for .*; open Lanes from your applications, or run `lanes daemon`/);
  });
});
