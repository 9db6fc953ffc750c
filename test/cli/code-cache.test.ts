// bin/lanes.js runs the CLI bundle from V8's code cache beside it. The cache is a file on disk like
// any other: missing, stale or garbage, the call must answer the same, and the next call finds a
// good cache again. Each command keeps its own, so one command's call (`lanes daemon` stopping,
// say) never leaves another with a cache of functions it does not run. Run in a copy of the package's entry and bundle, so the checkout's own cache
// is left alone.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT, tempDataDir } from '../support/daemon.js';

describe('the CLI code cache', () => {
  const copy = tempDataDir('lanes-cli-copy-');
  const cache = join(copy.dir, 'dist', 'cli', 'lanes.cjs.cache');
  const help = () => spawnSync(process.execPath, [join(copy.dir, 'bin', 'lanes.js'), '--help'], { encoding: 'utf8' });
  let expected = '';

  beforeAll(async () => {
    await ensureBuilt();
    for (const dir of ['bin', join('dist', 'cli')]) mkdirSync(join(copy.dir, dir), { recursive: true });
    for (const file of ['package.json', join('bin', 'lanes.js'), join('bin', 'package.json'), join('dist', 'cli', 'lanes.cjs')]) {
      copyFileSync(join(ROOT, file), join(copy.dir, file));
    }
    expected = spawnSync(process.execPath, [join(ROOT, 'bin', 'lanes.js'), '--help'], { encoding: 'utf8' }).stdout;
  }, 120_000);
  afterAll(() => copy.remove());

  it('is written by the first call, and the next call runs from it with the same answer', () => {
    expect(existsSync(cache)).toBe(false);
    const first = help();
    expect([first.status, first.stderr, first.stdout]).toEqual([0, '', expected]);
    const written = readFileSync(cache);
    expect(written.length).toBeGreaterThan(1_000);
    const second = help();
    expect([second.status, second.stderr, second.stdout]).toEqual([0, '', expected]);
    expect(readFileSync(cache).equals(written)).toBe(true);
  });

  it('that is garbage is not trusted: the call answers the same and writes a good one', () => {
    writeFileSync(cache, Buffer.from('not a V8 code cache at all'.repeat(100)));
    const res = help();
    expect([res.status, res.stderr, res.stdout]).toEqual([0, '', expected]);
    expect(readFileSync(cache).toString('utf8').includes('not a V8 code cache')).toBe(false);
  });

  it('is one per command: a status call neither reads help’s nor replaces it, and a typo writes none', () => {
    help();
    const helps = readFileSync(cache);
    const status = () => spawnSync(process.execPath, [join(copy.dir, 'bin', 'lanes.js'), '--data-dir', join(copy.dir, 'none'), 'status'], { encoding: 'utf8' });
    const first = status();
    expect([first.status, first.stderr]).toEqual([1, expect.stringContaining('no Lanes engine is running')]);
    const own = readFileSync(join(copy.dir, 'dist', 'cli', 'lanes.cjs.status.cache'));
    expect(own.equals(helps)).toBe(false);
    expect([status().stderr, readFileSync(cache).equals(helps)]).toEqual([first.stderr, true]);
    const typo = spawnSync(process.execPath, [join(copy.dir, 'bin', 'lanes.js'), 'stauts'], { encoding: 'utf8' });
    expect(typo.status).toBe(2);
    expect(readdirSync(join(copy.dir, 'dist', 'cli')).sort()).toEqual(['lanes.cjs', 'lanes.cjs.cache', 'lanes.cjs.status.cache']);
    expect(readFileSync(cache).equals(helps)).toBe(true);
  });

  it('for an older bundle is replaced once the bundle changes', () => {
    help();
    const before = readFileSync(cache);
    const bundle = join(copy.dir, 'dist', 'cli', 'lanes.cjs');
    writeFileSync(bundle, `${readFileSync(bundle, 'utf8')}\n// rebuilt\n`);
    const res = help();
    expect([res.status, res.stdout]).toEqual([0, expected]);
    expect(readFileSync(cache).equals(before)).toBe(false);
  });
});
