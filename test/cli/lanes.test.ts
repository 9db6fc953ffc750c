// Caps, lanes, status, the nudge and the scale ledger through the CLI, against a real daemon;
// and bad input refused with a message, a non-zero exit and nothing changed.
import { existsSync, mkdirSync, readFileSync, statSync, watch, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ScaleEvent } from '../../shared/model.js';
import { lanes, tempDataDir } from '../support/daemon.js';
import { daemonForFile } from '../support/daemon-suite.js';
import { within } from '../support/poll.js';

/** Resolves once `path` exists (it is written by rename, so it appears whole). */
function fileAppears(path: string): Promise<void> {
  return new Promise((done) => {
    const watcher = watch(dirname(path), () => {
      if (existsSync(path)) {
        watcher.close();
        done();
      }
    });
    if (existsSync(path)) {
      watcher.close();
      done();
    }
  });
}

interface StatusJson {
  ceiling: number;
  lanes: { name: string; class: string; cap: number; workers: number; busy: number; waiting: number; nudge: string | null }[];
}

describe('lanes status / cap / lane / events', () => {
  const t = daemonForFile({ stopsCleanly: false });
  const work = tempDataDir('lanes-work-');
  afterAll(() => work.remove());

  /** What a refused request must not change (live counts move by themselves). */
  async function settings() {
    const s = await status();
    return { ceiling: s.ceiling, lanes: s.lanes.map((l) => [l.name, l.class, l.cap]) };
  }

  async function status(): Promise<StatusJson> {
    const res = await t.daemon.cli('status', '--json');
    expect(res.code).toBe(0);
    return JSON.parse(res.stdout) as StatusJson;
  }

  it('prints status as JSON in the documented shape', async () => {
    const s = await status();
    expect(s.ceiling).toBe(2);
    const worker = s.lanes.find((l) => l.name === 'worker');
    expect(worker).toMatchObject({ name: 'worker', class: 'cpu', cap: 1, workers: expect.any(Number), busy: 0, waiting: 0, nudge: null });
    expect(s.lanes.find((l) => l.name === 'ml')).toMatchObject({ class: 'ml', cap: 0, nudge: null });
  });

  it('prints status as an aligned table (--wide: every column)', async () => {
    const res = await t.daemon.cli('status', '--wide');
    const lines = res.stdout.split('\n');
    const header = lines.find((l) => l.startsWith('LANE')) as string;
    expect(header).toMatch(/^LANE\s+CLASS\s+CAP\s+WORKERS\s+BUSY\s+WAITING\s+KEPT\s+FAILED\s+PER MIN\s+STATE\s+OUTLOOK$/);
    const row = lines.find((l) => l.startsWith('worker')) as string;
    // Right-aligned numbers end where their header ends.
    expect(row[header.indexOf('CAP') + 2]).toBe('1');
  });

  it('sets caps (above the ceiling too: the machine decides how many run), and refuses -1, 1.5 and unknown lanes without changing any', async () => {
    const before = await settings();
    const refused: [string[], number, RegExp][] = [
      [['cap', 'worker', '-1'], 2, /at least 0/],
      [['cap', 'worker', '1.5'], 2, /whole number/],
      [['cap', 'worker', 'two'], 2, /whole number/],
      [['cap', 'worker', '300'], 2, /at most 256/],
      [['cap', 'nosuch', '1'], 1, /no lane named "nosuch"/],
      [['cap', 'worker'], 2, /missing required argument/],
    ];
    for (const [args, code, message] of refused) {
      const res = await t.daemon.cli(...args);
      expect(res.code, args.join(' ')).toBe(code);
      expect(res.stderr, args.join(' ')).toMatch(message);
      expect(res.stdout).toBe('');
    }
    expect(await settings()).toEqual(before);

    const raised = await t.daemon.cli('cap', 'ml', '2');
    expect(raised.code).toBe(0);
    expect(raised.stdout).toMatch(/^ml: cap 2/);
    expect((await status()).lanes.find((l) => l.name === 'ml')?.cap).toBe(2);
    expect((await t.daemon.cli('cap', 'ml', '0')).code).toBe(0);
  });

  it('shows the nudge as text in status --json when raising the cap would help', async () => {
    const gate = join(work.dir, 'nudge-gate');
    const hold = `while [ ! -f "${gate}" ]; do sleep 0.05; done`;
    // Queued in one request: one at a time, a slow machine may let the nudge speak between them.
    const lines = join(work.dir, 'nudge-jobs');
    writeFileSync(lines, `${hold}\n`.repeat(3));
    const ids = (await t.daemon.cli('add', '--from', lines)).stdout.trim().split('\n');
    expect(ids).toHaveLength(3);
    // The engine says when the nudge appears; the CLI must then print its words.
    await t.events.next((e) => e.type === 'lane' && e.data.name === 'worker' && e.data.nudge !== null);
    const worker = (await status()).lanes.find((l) => l.name === 'worker');
    expect(worker?.nudge).toMatch(/^2 waiting and all 1 worker busy\. .*up to 2\.$/);
    const human = await t.daemon.cli('status');
    expect(human.stdout).toContain('worker: 2 waiting and all 1 worker busy.');
    expect(human.stdout).toContain('lanes cap worker 2');
    writeFileSync(gate, '');
    expect((await t.daemon.cli('wait', ...ids)).code).toBe(0);
  });

  it('adds and removes lanes', async () => {
    const added = await t.daemon.cli('lane', 'add', 'batch', '--cap', '2', '--json');
    expect(added.code).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({ name: 'batch', class: 'cpu', cap: 2, workerCommand: null });
    const ml = await t.daemon.cli('lane', 'add', 'embed', '--class', 'ml', '--worker-command', 'python3 -u "serve it.py" --model m', '--json');
    expect(JSON.parse(ml.stdout)).toMatchObject({ name: 'embed', class: 'ml', workerCommand: ['python3', '-u', 'serve it.py', '--model', 'm'] });
    const trailing = await t.daemon.cli('lane', 'add', 'embed2', '--class', 'ml', '--json', '--', 'node', 'worker.js', '--fast');
    expect(JSON.parse(trailing.stdout)).toMatchObject({ workerCommand: ['node', 'worker.js', '--fast'] });
    expect((await status()).lanes.map((l) => l.name)).toEqual(expect.arrayContaining(['batch', 'embed', 'embed2']));

    const duplicate = await t.daemon.cli('lane', 'add', 'batch');
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toMatch(/batch/);
    const badName = await t.daemon.cli('lane', 'add', 'Not OK');
    expect(badName.code).toBe(1);
    expect(badName.stderr).toMatch(/a-z/);
    const badClass = await t.daemon.cli('lane', 'add', 'gpu', '--class', 'gpu');
    expect(badClass.code).toBe(2);

    for (const name of ['batch', 'embed', 'embed2']) {
      const removed = await t.daemon.cli('lane', 'remove', name);
      expect(removed.code).toBe(0);
      expect(removed.stdout).toBe(`removed lane ${name}\n`);
    }
    expect((await t.daemon.cli('lane', 'remove', 'nosuch')).code).toBe(1);
    expect((await status()).lanes.map((l) => l.name).sort()).toEqual(['ml', 'worker']);
  });

  it('prints the scale ledger', async () => {
    const json = await t.daemon.cli('events', '--json', '--lane', 'worker');
    expect(json.code).toBe(0);
    const ledger = JSON.parse(json.stdout) as ScaleEvent[];
    expect(ledger.length).toBeGreaterThan(0);
    expect(ledger.every((e) => e.lane === 'worker')).toBe(true);
    expect(ledger.some((e) => e.reason === 'demand' && e.to > e.from)).toBe(true);
    const human = await t.daemon.cli('events');
    expect(human.stdout.split('\n')[0]).toMatch(/^TIME\s+LANE\s+WORKERS\s+REASON\s+DETAIL$/);
    expect(human.stdout).toMatch(/worker\s+0 → 1\s+work waiting/);
  });

  it('follows the ledger as workers start', async () => {
    const follow = t.daemon.spawn('events', '--follow', '--json', '--lane', 'ml');
    // No need to wait for it to connect: it reads the ledger after subscribing, so a row written
    // before it is listening still shows up, once.
    expect((await t.daemon.cli('cap', 'ml', '1')).code).toBe(0);
    const job = (await t.daemon.cli('add', '--lane', 'ml', '--', 'true')).stdout.trim();
    const line = await follow.line(/"lane":"ml".*"reason":"demand"/);
    expect(JSON.parse(line)).toMatchObject({ lane: 'ml', from: 0, to: 1 });
    follow.child.kill('SIGINT');
    await follow.done;
    expect((await t.daemon.cli('wait', job)).code).toBe(0);
    expect((await t.daemon.cli('cap', 'ml', '0')).code).toBe(0);
  });

  it('follows the ledger in rows that stay under their header, whatever lane and reason come later', async () => {
    const follow = t.daemon.spawn('events', '--follow');
    const header = await follow.line(/^TIME\s+LANE\s+WORKERS\s+REASON\s+DETAIL$/);
    expect((await t.daemon.cli('lane', 'add', 'thumbnails', '--cap', '1')).code).toBe(0);
    const job = (await t.daemon.cli('add', '--lane', 'thumbnails', '--', 'true')).stdout.trim();
    const grew = await follow.line(/^\S+\s+thumbnails\s+0 → 1\s+work waiting/);
    expect((await t.daemon.cli('wait', job)).code).toBe(0);
    expect((await t.daemon.cli('cap', 'thumbnails', '0')).code).toBe(0);
    // "cap lowered", or "idle" where the idle worker left before the cap came down: a second reason either way.
    const lowered = await follow.line(/^\S+\s+thumbnails\s+1 → 0\s+\S/);
    for (const row of [grew, lowered]) {
      expect(row.indexOf('thumbnails'), row).toBe(header.indexOf('LANE'));
      // The reason begins where its header does.
      expect(row.slice(header.indexOf('REASON') - 1), row).toMatch(/^ \S/);
      // WORKERS is right-aligned: each count ends where its header does.
      expect(row.slice(0, header.indexOf('WORKERS') + 'WORKERS'.length), row).toMatch(/→ \d$/);
    }
    follow.child.kill('SIGINT');
    await follow.done;
    expect((await t.daemon.cli('lane', 'remove', 'thumbnails')).code).toBe(0);
  });

  it('groups digits in the table and the nudge (a lane at cap 0 with a backlog)', async () => {
    expect((await t.daemon.cli('lane', 'add', 'bulk', '--cap', '0')).code).toBe(0);
    const list = join(work.dir, 'bulk.txt');
    writeFileSync(list, 'true\n'.repeat(1200));
    expect((await t.daemon.cli('add', '--lane', 'bulk', '--from', list)).stdout.trim().split('\n')).toHaveLength(1200);
    await t.events.next((e) => e.type === 'lane' && e.data.name === 'bulk' && e.data.nudge !== null);
    const table = (await t.daemon.cli('status', '--wide')).stdout;
    expect(table).toMatch(/^bulk\s+cpu\s+0\s+0\s+0\s+1,200\s/m);
    expect((await status()).lanes.find((l) => l.name === 'bulk')?.nudge).toMatch(/^1,200 waiting/);
  });

  it('prints the window URL with its token', async () => {
    const res = await t.daemon.cli('open');
    expect(res.code).toBe(0);
    expect(res.stdout).toBe(`http://127.0.0.1:${t.daemon.info.port}/#token=${t.daemon.token}\n`);
  });

  it.runIf(process.platform === 'linux')('opens a browser on a private page, never with the token on its command line', async () => {
    // A stand-in for xdg-open that records what it was asked to open.
    const bin = join(work.dir, 'bin');
    const record = join(work.dir, 'opened.txt');
    mkdirSync(bin);
    writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s' "$*" > "${record}.tmp" && mv "${record}.tmp" "${record}"\n`, { mode: 0o755 });
    const appeared = fileAppears(record);
    const res = await lanes(['--data-dir', t.dir, 'open', '--browser'], { env: { PATH: `${bin}:${process.env.PATH}` } });
    expect(res.code).toBe(0);
    await within(appeared, 'the browser stand-in asked to open a page');
    const opened = readFileSync(record, 'utf8');
    expect(opened).toBe(pathToFileURL(join(t.dir, 'open.html')).href);
    expect(opened).not.toContain(t.daemon.token);
    // The page holds no token either: a code good once, within a minute.
    const page = readFileSync(join(t.dir, 'open.html'), 'utf8');
    expect(page).not.toContain(t.daemon.token);
    const code = /#code=([0-9a-f]+)/.exec(page)?.[1];
    expect(code).toBeDefined();
    expect(statSync(join(t.dir, 'open.html')).mode & 0o777).toBe(0o600);
    // The window redeems it for the token; then the page is gone and the code is spent.
    const redeem = () => fetch(`${t.daemon.base}/api/redeem`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ code }) });
    const first = await redeem();
    expect(await first.json()).toEqual({ token: t.daemon.token });
    expect(existsSync(join(t.dir, 'open.html'))).toBe(false);
    expect((await redeem()).status).toBe(401);
  });
});
