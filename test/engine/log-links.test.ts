// No log operation follows a link, anywhere under logs/: writing a job's output (open), starting
// both-together as a copy of the first stream (copy), joining a finished job's three files
// (join), splitting them for a retry (split), reading them back (read), and measuring, trimming
// and cleaning them (list, remove, orphans, tidy). Each plants a link at every name a job's log
// can have — and at its folder and logs/ itself — pointing at a 0600 secret outside the data
// directory, which must never be read into a log nor written. Real engine, real worker processes.
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../electron/engine/index.js';
import { LogFiles } from '../../electron/engine/retention/log-files.js';
import { jobsFinished, startEngine, tempDir } from '../support/engine.js';
import { waitFor } from '../support/poll.js';

const SECRET = 'the secret outside the data directory\n';
let open: { engine?: Engine; cleanup: () => void }[] = [];
afterEach(async () => {
  for (const o of open) {
    await o.engine?.stop({ graceMs: 1000 });
    o.cleanup();
  }
  open = [];
});

function place() {
  const tmp = tempDir('lanes-links-');
  const dataDir = join(tmp.dir, 'data');
  const outside = join(tmp.dir, 'outside');
  mkdirSync(dataDir, { mode: 0o700 });
  mkdirSync(outside, { mode: 0o700 });
  const secret = join(outside, 'secret');
  writeFileSync(secret, SECRET, { mode: 0o600 });
  const entry: { engine?: Engine; cleanup: () => void } = { cleanup: tmp.cleanup };
  open.push(entry);
  return { dataDir, outside, secret, entry };
}

/** Every name a job's log can have: each stream, both together, the joined file and a join under way. */
function logNames(dataDir: string, id: number) {
  const base = join(dataDir, 'logs', String(Math.floor(id / 1000)), String(id));
  return { stdout: `${base}.stdout.log`, stderr: `${base}.stderr.log`, all: `${base}.log`, joined: `${base}.logs`, part: `${base}.logs.part` };
}

function plant(target: string, ...paths: string[]): void {
  for (const path of paths) {
    rmSync(path, { force: true });
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    symlinkSync(target, path);
  }
}

/** The secret as it was, and nothing Lanes keeps or hands out holds it. */
async function untouched(engine: Engine, dataDir: string, secret: string, ids: number[]): Promise<void> {
  expect(readFileSync(secret, 'utf8')).toBe(SECRET);
  expect(statSync(secret).mode & 0o777).toBe(0o600);
  for (const id of ids) {
    for (const stream of ['stdout', 'stderr', 'all'] as const) expect((await engine.request('logTail', { id, stream })).text, `${id} ${stream}`).not.toContain('secret');
  }
  const walk = (dir: string): string[] => readdirSync(dir).flatMap((n) => (lstatSync(join(dir, n)).isDirectory() ? walk(join(dir, n)) : [join(dir, n)]));
  for (const file of walk(join(dataDir, 'logs'))) if (lstatSync(file).isFile()) expect(readFileSync(file, 'utf8'), file).not.toContain('secret');
}

async function engineIn(p: ReturnType<typeof place>): Promise<{ engine: Engine; next: () => Promise<number> }> {
  const engine = await startEngine(p.dataDir);
  p.entry.engine = engine;
  // The next job's id: one more than a job just added (ids are handed out in order).
  const next = async () => (await engine.request('addJob', { argv: ['true'] })).id + 1;
  await jobsFinished(engine, [(await engine.request('addJob', { argv: ['true'] })).id]);
  return { engine, next };
}

const sh = (script: string) => ({ argv: ['sh', '-c', script] });

/** A fresh place and engine, the id the next job will have, its log names and a file to wait on (`go`). */
async function nextJobIn(): Promise<{ p: ReturnType<typeof place>; engine: Engine; id: number; n: ReturnType<typeof logNames>; go: string }> {
  const p = place();
  const { engine, next } = await engineIn(p);
  const id = await next();
  return { p, engine, id, n: logNames(p.dataDir, id), go: join(p.dataDir, 'go') };
}

describe.runIf(process.platform !== 'win32')('no log operation follows a link', () => {
  it('open: links at every name of a job before it runs are removed, its output kept in files of its own', async () => {
    const p = place();
    const { engine, next } = await engineIn(p);
    const id = await next();
    const n = logNames(p.dataDir, id);
    plant(p.secret, n.stdout, n.stderr, n.all, n.joined, n.part);
    expect((await engine.request('addJob', sh('echo out; echo err >&2'))).id).toBe(id);
    await jobsFinished(engine, [id]);
    const all = (await engine.request('logTail', { id, stream: 'all' })).text;
    expect(all).toContain('out\n');
    expect(all).toContain('err\n');
    await untouched(engine, p.dataDir, p.secret, [id]);
  });

  it('open: a link at the job’s folder of logs is removed, never followed; logs/ itself a link refuses the start', async () => {
    const p = place();
    const elsewhere = join(p.outside, 'folder');
    mkdirSync(elsewhere);
    symlinkSync(p.secret, join(elsewhere, '1001.stdout.log'));
    symlinkSync(elsewhere, join(p.dataDir, 'logs'));
    await expect(startEngine(p.dataDir)).rejects.toThrow(/logs is a link; Lanes makes its own folders/);
    expect(lstatSync(join(p.dataDir, 'logs')).isSymbolicLink()).toBe(true);
    rmSync(join(p.dataDir, 'logs'));
    const { engine, next } = await engineIn(p);
    const id = await next();
    const folder = dirname(logNames(p.dataDir, id).stdout);
    rmSync(folder, { recursive: true, force: true });
    plant(elsewhere, folder);
    await jobsFinished(engine, [(await engine.request('addJob', sh('echo out'))).id]);
    expect((await engine.request('logTail', { id })).text).toBe('out\n');
    expect(lstatSync(folder).isSymbolicLink()).toBe(false);
    expect(readdirSync(elsewhere)).toEqual(['1001.stdout.log']);
    await untouched(engine, p.dataDir, p.secret, [id]);
  });

  it('copy: the first stream’s file swapped for a link while it runs is not copied into both-together', async () => {
    const { p, engine, id, n, go } = await nextJobIn();
    await engine.request('addJob', sh(`echo out; while [ ! -e ${go} ]; do sleep 0.02; done; echo err >&2`));
    await waitFor(() => existsSync(n.stdout), 'the stdout log');
    plant(p.secret, n.stdout);
    writeFileSync(go, '');
    await jobsFinished(engine, [id]);
    expect((await engine.request('logTail', { id, stream: 'stderr' })).text).toBe('err\n');
    await untouched(engine, p.dataDir, p.secret, [id]);
  });

  it('join: links at the three files and at the join’s own name as the job ends: nothing read through, nothing written', async () => {
    const { p, engine, id, n, go } = await nextJobIn();
    await engine.request('addJob', sh(`echo out; echo err >&2; while [ ! -e ${go} ]; do sleep 0.02; done`));
    await waitFor(() => existsSync(n.all), 'both-together');
    plant(p.secret, n.stdout, n.stderr, n.all, n.part);
    writeFileSync(go, '');
    await jobsFinished(engine, [id]);
    expect(lstatSync(n.joined, { throwIfNoEntry: false })).toBeUndefined();
    await untouched(engine, p.dataDir, p.secret, [id]);
  });

  it('split: a retry of a joined job with links at the three names writes its own files, never through them', async () => {
    const { p, engine, id, n, go: ok } = await nextJobIn();
    await engine.request('addJob', sh(`echo out; echo err >&2; [ -e ${ok} ]`));
    expect((await jobsFinished(engine, [id]))[0]!.state).toBe('failed');
    expect(existsSync(n.joined)).toBe(true);
    plant(p.secret, n.stdout, n.stderr, n.all, n.part);
    writeFileSync(ok, '');
    await engine.request('retry', { id });
    await waitFor(async () => (await engine.request('job', { id })).state === 'succeeded', 'the retry to succeed');
    const all = (await engine.request('logTail', { id, stream: 'all' })).text;
    // Every attempt's output, the one before the retry's included.
    expect(all.match(/out\n/g)!.length).toBeGreaterThanOrEqual(2);
    expect(all).toMatch(/── attempt \d+ · /);
    await untouched(engine, p.dataDir, p.secret, [id]);
  });

  it('read: a finished job’s files swapped for links read as no log', async () => {
    const p = place();
    const { engine, next } = await engineIn(p);
    const joined = await next();
    await jobsFinished(engine, [(await engine.request('addJob', sh('echo out; echo err >&2'))).id]);
    const single = joined + 1;
    await jobsFinished(engine, [(await engine.request('addJob', sh('echo out'))).id]);
    plant(p.secret, logNames(p.dataDir, joined).joined, logNames(p.dataDir, single).stdout);
    expect((await engine.request('logTail', { id: joined })).text).toBe('');
    expect((await engine.request('logTail', { id: single })).text).toBe('');
    await untouched(engine, p.dataDir, p.secret, [joined, single]);
  });

  it('list, trim, clean, orphans, tidy: a folder or logs/ planted as a link is never looked into', async () => {
    const p = place();
    const elsewhere = join(p.outside, 'folder');
    mkdirSync(elsewhere);
    writeFileSync(join(elsewhere, '5.log'), 'not a log of this data directory', { mode: 0o600 });
    symlinkSync(p.secret, join(elsewhere, '7.stdout.log'));
    mkdirSync(join(p.dataDir, 'logs', '1'), { recursive: true, mode: 0o700 });
    symlinkSync(elsewhere, join(p.dataDir, 'logs', '0'));
    // A link at a log's name inside a real folder: removed as the link it is, its target left.
    symlinkSync(p.secret, join(p.dataDir, 'logs', '1', '1001.log'));
    const logs = new LogFiles(p.dataDir);
    const listed = await logs.list();
    expect(listed.map((f) => f.path)).toEqual([join(p.dataDir, 'logs', '1', '1001.log')]);
    expect(listed[0]!.bytes).toBeLessThan(SECRET.length);
    expect(logs.highestIds().local).toBe(1001);
    expect(await logs.remove([5, 7, 1001])).toBe(1);
    expect(await logs.removeOrphans([{ id: 5, path: join(elsewhere, '5.log'), bytes: 1 }], () => new Set())).toBe(0);
    await logs.tidy();
    expect(readdirSync(elsewhere).sort()).toEqual(['5.log', '7.stdout.log']);
    expect(readFileSync(p.secret, 'utf8')).toBe(SECRET);

    // logs/ itself a link (the engine refuses to start on one; retention never looks through it either).
    rmSync(join(p.dataDir, 'logs'), { recursive: true });
    symlinkSync(elsewhere, join(p.dataDir, 'logs'));
    const again = new LogFiles(p.dataDir);
    expect(await again.list()).toEqual([]);
    expect(again.highestIds().local).toBe(0);
    await again.remove([5, 7]);
    await again.tidy();
    expect(readdirSync(elsewhere).sort()).toEqual(['5.log', '7.stdout.log']);
  });
});
