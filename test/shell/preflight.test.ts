// `npm start` and `npm run dist` where Electron's binary is missing and cannot be downloaded: run
// for real, in a copy of this tree whose electron package has no binary, with the download
// pointed at a port nothing listens on. They must fail in one line that names the host, the
// mirror variable and `npm run daemon`, with no stack trace, and start nothing else.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script, typed by its use here
import { DEFAULT_MIRROR, electronBinary, failureLine, mirrorOf } from '../../electron/packaging/preflight.mjs';
import { ROOT, tempDataDir } from '../support/daemon.js';

/** A port that was free a moment ago: connecting to it is refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

describe('the start and dist preflight', () => {
  const copy = tempDataDir('lanes-tree-');
  let port = 0;

  beforeAll(async () => {
    // The tree: its scripts and sources; every package but electron by link, electron copied
    // without its binary (as `npm ci` leaves it when the binary's download failed).
    for (const entry of ['package.json', 'electron', 'shared', 'bin']) fs.cpSync(path.join(ROOT, entry), path.join(copy.dir, entry), { recursive: true });
    const modules = path.join(copy.dir, 'node_modules');
    fs.mkdirSync(modules);
    const real = fs.realpathSync(path.join(ROOT, 'node_modules'));
    for (const name of fs.readdirSync(real)) {
      if (name !== 'electron') fs.symlinkSync(path.join(real, name), path.join(modules, name));
    }
    fs.cpSync(path.join(real, 'electron'), path.join(modules, 'electron'), { recursive: true, filter: (src) => !/[\\/]electron[\\/](dist|path\.txt)/.test(src.slice(real.length)) });
    port = await closedPort();
  });
  afterAll(() => copy.remove());

  it('has no Electron binary in the copy', () => {
    expect(electronBinary(path.join(copy.dir, 'node_modules', 'electron'), {})).toBeNull();
  });

  it.each(['start', 'dist'])('npm %s fails in one line naming the host, ELECTRON_MIRROR and npm run daemon', (script) => {
    const env = { ...process.env, ELECTRON_MIRROR: `http://127.0.0.1:${port}/`, electron_config_cache: path.join(copy.dir, 'cache') };
    const run = spawnSync('npm', [script === 'start' ? 'start' : 'run', ...(script === 'start' ? [] : ['dist'])], { cwd: copy.dir, encoding: 'utf8', env, timeout: 120_000 });
    expect(run.status).not.toBe(0);
    const said = run.stderr.split('\n').filter((l) => l.startsWith('lanes:'));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain(`its download from 127.0.0.1:${port} failed (connect ECONNREFUSED 127.0.0.1:${port})`);
    expect(said[0]).toContain('ELECTRON_MIRROR');
    expect(said[0]).toContain('npm run daemon');
    const output = run.stdout + run.stderr;
    expect(output).not.toMatch(/^\s+at /m);
    expect(output).not.toMatch(/Electron failed to install correctly/);
    // Nothing after the preflight ran: no build, no rebuild of the native module (npm's own
    // echo of the script, its lines starting with '>', names them).
    expect(output.split('\n').filter((l) => !l.startsWith('>')).join('\n')).not.toMatch(/abi:|tsc|electron-builder/);
    expect(fs.existsSync(path.join(copy.dir, 'dist'))).toBe(false);
  });

  it.each([
    [{}, DEFAULT_MIRROR],
    [{ ELECTRON_MIRROR: 'https://mirror.example/electron/' }, 'https://mirror.example/electron/'],
    [{ npm_config_electron_mirror: 'https://npmrc.example/' }, 'https://npmrc.example/'],
  ])('reads the mirror Electron\'s installer reads: %j', (env, mirror) => {
    expect(mirrorOf(env)).toBe(mirror);
  });

  it('words the line for the task it stops', () => {
    expect(failureLine({ task: 'dist', host: 'github.com', cause: 'getaddrinfo ENOTFOUND github.com' })).toBe(
      "lanes: cannot package the app: Electron's binary is missing and its download from github.com failed (getaddrinfo ENOTFOUND github.com); " +
        'set ELECTRON_MIRROR to a mirror you can reach and try again, or run the same engine without a window: npm run daemon',
    );
  });
});
