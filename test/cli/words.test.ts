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
