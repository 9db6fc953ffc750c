// abi.mjs itself, in this checkout: `npm test` has just run it for Node, so a second run must find
// nothing to do, quickly — it runs before every test run.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const script = path.join(root, 'electron', 'native', 'abi.mjs');
const run = (...args: string[]) => spawnSync(process.execPath, [script, ...args], { cwd: root, encoding: 'utf8' });

describe('electron/native/abi.mjs', () => {
  it('for node: nothing to do, recorded in the marker, well under a second', () => {
    run('node');
    const started = performance.now();
    const result = run('node');
    const took = performance.now() - started;
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    // The budget is 200 ms on an idle machine; a loaded CI box gets headroom.
    expect(took).toBeLessThan(1_000);
    const moduleDir = path.dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json'));
    const marker = JSON.parse(fs.readFileSync(path.join(moduleDir, 'build', 'Release', '.lanes-abi'), 'utf8')) as Record<string, unknown>;
    expect(marker).toMatchObject({ runtime: 'node', modules: process.versions.modules, platform: process.platform, arch: process.arch });
  });

  it('refuses an unknown target with usage', () => {
    const result = run('deno');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('usage: node electron/native/abi.mjs node|electron');
  });
});
