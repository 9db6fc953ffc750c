// A day's use at the command line, against a real `lanes daemon`: many jobs cancelled or retried
// in one call, a lane removed with what it holds, all work paused and resumed, a nudge snoozed,
// the oldest jobs first, and one log of both streams with a line between attempts.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { daemonForFile } from '../support/daemon-suite.js';

describe("a day's use from the CLI", () => {
  const t = daemonForFile();
  const { reaches } = t;
  const ids = (stdout: string) => stdout.trim().split('\n').map(Number);
  let files = 0;
  /** A file of command lines for `add --from`. */
  const lines = (text: string) => {
    const file = join(t.dir, `lines-${++files}.txt`);
    writeFileSync(file, text);
    return file;
  };

  it('cancels several jobs by id in one call, then every one left in a lane; retries all failed; removes a lane with what it holds', async () => {
    await t.daemon.api('addLane', { name: 'held', cap: 0 });
    const added = ids((await t.daemon.cli('add', '--lane', 'held', '--from', lines('true\ntrue\ntrue\ntrue\n'))).stdout);
    const two = await t.daemon.cli('cancel', String(added[0]), String(added[1]));
    expect(two.code).toBe(0);
    expect(two.stdout).toBe('cancelled 2 jobs\n');
    const rest = await t.daemon.cli('cancel', '--lane', 'held', '--json');
    expect(JSON.parse(rest.stdout)).toEqual({ cancelled: 2, stopping: 0 });

    const failing = ids((await t.daemon.cli('add', '--attempts', '1', '--from', lines('false\nfalse\n'))).stdout);
    for (const id of failing) await reaches(id, 'failed');
    const retried = await t.daemon.cli('retry', '--failed', '--json');
    expect(JSON.parse(retried.stdout)).toEqual({ retried: 2 });

    await t.daemon.cli('add', '--lane', 'held', '--', 'true');
    const refused = await t.daemon.cli('lane', 'remove', 'held');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/--cancel/);
    const removed = await t.daemon.cli('lane', 'remove', 'held', '--cancel');
    expect(removed.code).toBe(0);
    expect((await t.daemon.api('status', {})).lanes.map((l) => l.name)).not.toContain('held');
  });

  it('pauses all work for a while, says so in status with the caps as they were, and resumes', async () => {
    const paused = await t.daemon.cli('pause', '--for', '1h');
    expect(paused.code).toBe(0);
    const status = await t.daemon.cli('status');
    // An hour from now may be tomorrow: then the date comes first.
    const until = new Date(Date.now() + 3_600_000);
    const today = until.toDateString() === new Date().toDateString();
    expect(status.stdout).toMatch(today ? /All work paused until \d\d:\d\d/ : /All work paused until \d{4}-\d\d-\d\d \d\d:\d\d/);
    const { id } = await t.daemon.api('addJob', { argv: ['true'] });
    expect((await t.daemon.api('status', {})).lanes.find((l) => l.name === 'worker')).toMatchObject({ cap: 1, mood: 'paused' });
    expect((await t.daemon.cli('resume')).code).toBe(0);
    await reaches(id, 'succeeded');
    expect((await t.daemon.cli('status')).stdout).not.toMatch(/paused/);
  });

  it('snoozes a nudge, and refuses a span it cannot read', async () => {
    expect((await t.daemon.cli('snooze', 'worker', '--for', '2h')).code).toBe(0);
    const lane = (await t.daemon.api('status', {})).lanes.find((l) => l.name === 'worker')!;
    expect(lane.nudgeQuietUntil).toBeGreaterThan(Date.now() + 7000_000);
    const bad = await t.daemon.cli('snooze', 'worker', '--for', 'soon');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--for/);
  });

  it('lists the oldest first and finds jobs by text; log --all shows both streams and each attempt', async () => {
    await t.daemon.api('addLane', { name: 'list', cap: 0 });
    const listed = ids((await t.daemon.cli('add', '--lane', 'list', '--from', lines('echo resize 1\necho thumbnail 2\necho resize 3\n'))).stdout);
    const oldest = await t.daemon.cli('jobs', '--lane', 'list', '--oldest', '--json');
    expect((JSON.parse(oldest.stdout) as { jobs: { id: number }[] }).jobs.map((j) => j.id)).toEqual(listed);
    const found = await t.daemon.cli('jobs', '--lane', 'list', '--search', 'THUMB', '--json');
    expect((JSON.parse(found.stdout) as { jobs: { id: number }[] }).jobs.map((j) => j.id)).toEqual([listed[1]]);

    const script = join(t.dir, 'twice.sh');
    writeFileSync(script, 'echo out; echo err >&2; exit 4\n');
    const { id } = await t.daemon.api('addJob', { argv: ['sh', script], maxAttempts: 2 });
    await reaches(id, 'failed');
    const log = await t.daemon.cli('log', String(id), '--all');
    expect(log.stdout).toMatch(/^out\nerr\n── attempt 2 · \d\d:\d\d:\d\d ──\nout\nerr\n$/);
  });
});
