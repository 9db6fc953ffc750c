// Every word on screen true, at the command line against a real `lanes daemon`: a lane's state
// through pause and resume, a failed job's log, numbers refused before they are sent, and the
// conventions every command keeps.
import { describe, expect, it } from 'vitest';
import type { LanesEvent } from '../../shared/events.js';
import type { LaneStatus } from '../../shared/model.js';
import { daemonForFile } from '../support/daemon-suite.js';

const t = daemonForFile();

describe('lane states, from the CLI', () => {
  const laneEvent = (name: string, after: number, match: (l: LaneStatus) => boolean) =>
    t.events.next((e: LanesEvent) => e.seq > after && e.type === 'lane' && e.data.name === name && match(e.data), 20_000);
  const lastSeq = () => t.events.events.at(-1)?.seq ?? 0;

  it('a job running through pause and resume keeps its worker busy: BUSY 1, running, nothing draining', async () => {
    expect((await t.daemon.cli('lane', 'add', 'rp', '--cap', '2')).code).toBe(0);
    const added = await t.daemon.cli('add', '--lane', 'rp', '--', 'sleep 40');
    const id = Number(added.stdout.trim());
    await t.reaches(id, 'running');
    expect((await t.daemon.cli('pause')).code).toBe(0);
    await laneEvent('rp', 0, (l) => l.draining === 1);
    const resumedAt = lastSeq();
    expect((await t.daemon.cli('resume')).code).toBe(0);
    await laneEvent('rp', resumedAt, (l) => l.busy === 1 && l.draining === 0);
    const rp = (await t.daemon.api('status', {})).lanes.find((l) => l.name === 'rp')!;
    expect(rp).toMatchObject({ workers: 1, busy: 1, draining: 0, running: 1, mood: 'working' });
    const row = (await t.daemon.cli('status')).stdout.split('\n').find((line) => line.startsWith('rp '))!;
    expect(row).not.toMatch(/draining|idle/);
    expect(row).toMatch(/working/);
    await t.daemon.cli('cancel', String(id));
    await t.reaches(id, 'cancelled');
  });
});

describe('a failed job’s log', () => {
  it('opens on its error and its stderr; --stdout shows its output alone', async () => {
    const added = await t.daemon.cli('add', '--attempts', '1', '--', 'echo out; echo "the disk is on fire" >&2; exit 3');
    const id = Number(added.stdout.trim());
    await t.reaches(id, 'failed');
    const log = await t.daemon.cli('log', String(id));
    expect(log.code).toBe(0);
    expect(log.stdout).toBe('the disk is on fire\n');
    expect(log.stderr).toMatch(new RegExp(`job ${id}: failed \\(exit 3\\).*--stdout`));
    const out = await t.daemon.cli('log', String(id), '--stdout');
    expect(out.stdout).toBe('out\n');
    expect(out.stderr).toBe('');
    expect((await t.daemon.cli('log', String(id), '--stdout', '--all')).code).toBe(2);
  });
});

describe('CLI conventions', () => {
  it('tables fit 80 columns, dropping columns in the stated order; --wide shows them all', async () => {
    await t.daemon.api('addLane', { name: 'a-rather-long-lane-name', cap: 0 });
    const long = `echo ${'x'.repeat(150)}`;
    await t.daemon.api('addJobs', { jobs: Array.from({ length: 3 }, () => ({ lane: 'a-rather-long-lane-name', shell: long })) });
    for (const args of [['status'], ['jobs']]) {
      // The table: from its header to the first blank line (notes after it are prose, and wrap).
      const lines = (await t.daemon.cli(...args)).stdout.split('\n');
      const from = lines.findIndex((l) => /^\s*(LANE|ID)\s/.test(l));
      const to = lines.indexOf('', from);
      expect(to - from, args[0]).toBeGreaterThan(1);
      for (const line of lines.slice(from, to)) expect(line.length, `${args[0]}: ${line}`).toBeLessThanOrEqual(80);
    }
    const jobs = (await t.daemon.cli('jobs')).stdout;
    expect(jobs).toMatch(/…/);
    expect(jobs.split('\n')[0]).toMatch(/^\s*ID\s+LANE\s+STATE\b.*COMMAND$/);
    const wide = (await t.daemon.cli('jobs', '--wide')).stdout;
    expect(wide).toContain('x'.repeat(150));
    expect(wide.split('\n')[0]).toMatch(/TRIES\s+QUEUED\s+TOOK/);
    await t.daemon.cli('lane', 'remove', 'a-rather-long-lane-name', '--cancel');
  });

  it('every out-of-range number is bad usage (exit 2), refused before anything is sent', async () => {
    const before = JSON.stringify((await t.daemon.api('status', {})).lanes.map((l) => [l.name, l.cap]));
    const refused: string[][] = [
      ['cap', 'worker', '300'],
      ['cap', 'worker', '-1'],
      ['lane', 'add', 'big', '--cap', '257'],
      ['lane', 'add', 'slow', '--timeout', '999999999'],
      ['add', '--timeout', '999999999', '--', 'true'],
      ['add', '--attempts', '101', '--', 'true'],
      ['pause', '--for', '30d'],
      ['snooze', 'worker', '--for', '8d'],
      ['jobs', '--limit', '1001'],
      ['log', '1', '--bytes', '99999999'],
    ];
    for (const args of refused) {
      const res = await t.daemon.cli(...args);
      expect(res.code, args.join(' ')).toBe(2);
      expect(res.stderr, args.join(' ')).toMatch(/^lanes: /);
    }
    expect(JSON.stringify((await t.daemon.api('status', {})).lanes.map((l) => [l.name, l.cap]))).toBe(before);
    expect((await t.daemon.api('status', {})).paused).toBeNull();
  });

  it('one "lanes:" prefix for every error, commander\'s own too; a mistyped lane gets "did you mean"', async () => {
    const typo = await t.daemon.cli('cap', 'wroker', '3');
    expect(typo.code).toBe(1);
    expect(typo.stderr).toMatch(/^lanes: there is no lane named "wroker" — did you mean "worker"\?/);
    for (const args of [['frobnicate'], ['cap', 'worker'], ['jobs', '--state', 'odd'], ['status', '--nope']]) {
      const res = await t.daemon.cli(...args);
      expect(res.code, args.join(' ')).toBe(2);
      expect(res.stderr, args.join(' ')).toMatch(/^lanes: /);
      expect(res.stderr, args.join(' ')).not.toMatch(/^error:/m);
    }
  });

  it('--json on every printing command, open included', async () => {
    const open = await t.daemon.cli('open', '--json');
    expect(open.code).toBe(0);
    expect(JSON.parse(open.stdout)).toEqual({ url: t.daemon.url });
    const { id } = await t.daemon.api('addJob', { shell: 'echo hi' });
    await t.reaches(id, 'succeeded');
    const log = await t.daemon.cli('log', String(id), '--json');
    expect(JSON.parse(log.stdout)).toMatchObject({ text: 'hi\n' });
  });

  it('a request without a Host header gets the JSON 403', async () => {
    const { connect } = await import('node:net');
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(t.daemon.port, '127.0.0.1', () => socket.write('GET /api/status HTTP/1.1\r\nConnection: close\r\n\r\n'));
      let text = '';
      socket.on('data', (d) => (text += d.toString()));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1.1 403/);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({ error: { code: 'forbidden' } });
  });
});
