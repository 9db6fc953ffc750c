// abi.mjs itself, in this checkout: `npm test` has just run it for Node, so a second run must find
// nothing to do — it runs before every test run. How fast that is belongs to the benchmark, not
// here; here, that it touched nothing: the binary, its marker, no rebuild announced.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

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
});
