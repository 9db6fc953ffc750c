// abi.mjs itself, in this checkout: `npm test` has just run it for Node, so a second run must find
// nothing to do — it runs before every test run. How fast that is belongs to the benchmark, not
// here; here, that it touched nothing: the binary, its marker, no rebuild announced. And for
// Electron where its headers cannot be fetched, in a copy of the tree (its own better-sqlite3, so
// this one's is never rebuilt): one line that says why and what to do, no stack trace.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { tempDataDir } from '../support/daemon.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const script = path.join(root, 'electron', 'native', 'abi.mjs');
// Bounded: a synchronous call holds the event loop, so the test's own timeout could not end it.
const run = (...args: string[]) => spawnSync(process.execPath, [script, ...args], { cwd: root, encoding: 'utf8', timeout: 60_000 });

describe('electron/native/abi.mjs', () => {
  it('for node: nothing to do, recorded in the marker, the binary and the marker left as they were', () => {
    expect(run('node').status).toBe(0);
    const release = path.join(path.dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json')), 'build', 'Release');
    const binary = path.join(release, 'better_sqlite3.node');
    const markerFile = path.join(release, '.lanes-abi');
    const stamp = (file: string) => {
      const s = fs.statSync(file);
      return { ino: s.ino, size: s.size, mtimeMs: s.mtimeMs };
    };
    const before = { binary: stamp(binary), marker: stamp(markerFile), text: fs.readFileSync(markerFile, 'utf8') };

    const result = run('node');
    expect(result.status, result.stderr).toBe(0);
    // Every step it takes (a rebuild, a wait for another's lock) is announced on stderr.
    expect(result.stderr).toBe('');
    expect({ binary: stamp(binary), marker: stamp(markerFile), text: fs.readFileSync(markerFile, 'utf8') }).toEqual(before);
    const marker = JSON.parse(before.text) as Record<string, unknown>;
    expect(marker).toMatchObject({ runtime: 'node', modules: process.versions.modules, platform: process.platform, arch: process.arch });
  });

  it('refuses an unknown target with usage', () => {
    const result = run('deno');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('usage: node electron/native/abi.mjs node|electron');
  });

  it('for electron without its headers: one line naming the host, the variable and npm run daemon', async () => {
    const copy = tempDataDir('lanes-abi-');
    try {
      const real = fs.realpathSync(path.join(root, 'node_modules'));
      fs.cpSync(path.join(root, 'package.json'), path.join(copy.dir, 'package.json'));
      fs.cpSync(path.join(root, 'electron'), path.join(copy.dir, 'electron'), { recursive: true });
      fs.mkdirSync(path.join(copy.dir, 'node_modules'));
      for (const name of fs.readdirSync(real)) {
        if (name === 'better-sqlite3' || name === '.cache') continue;
        fs.symlinkSync(path.join(real, name), path.join(copy.dir, 'node_modules', name));
      }
      fs.cpSync(path.join(real, 'better-sqlite3'), path.join(copy.dir, 'node_modules', 'better-sqlite3'), { recursive: true });
      const server = createServer();
      await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
      const { port } = server.address() as { port: number };
      await new Promise((done) => server.close(done));
      // Nothing to fetch from: not the headers, and not a prebuilt binary either.
      const nowhere = `http://127.0.0.1:${port}`;
      const env = { ...process.env, ELECTRON_REBUILD_DIST_URL: nowhere, npm_config_better_sqlite3_binary_host: nowhere, npm_config_better_sqlite3_binary_host_mirror: nowhere };
      const result = spawnSync(process.execPath, [path.join(copy.dir, 'electron', 'native', 'abi.mjs'), 'electron'], { cwd: copy.dir, encoding: 'utf8', env, timeout: 240_000 });
      expect(result.status).toBe(1);
      expect(result.stdout + result.stderr).not.toMatch(/^\s+at /m);
      const last = result.stderr.trimEnd().split('\n').pop() ?? '';
      expect(last).toContain(`the download of Electron's headers from 127.0.0.1:${port} failed (connect ECONNREFUSED`);
      expect(last).toContain('ELECTRON_REBUILD_DIST_URL');
      expect(last).toContain('npm run daemon');
      expect(fs.readFileSync(path.join(copy.dir, 'node_modules', '.cache', 'lanes-abi-electron.log'), 'utf8').length).toBeGreaterThan(0);
    } finally {
      copy.remove();
    }
  }, 300_000);
});
