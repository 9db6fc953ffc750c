// `lanes wait`, `log --follow` and `events --follow` ride out an engine restart, as docs/cli.md
// says: a real daemon is stopped while they follow it, stays away 5 s (the outage is the
// scenario, not a wait for something), and is started again on the same data directory; each
// command goes on as if nothing happened and ends as the job ends.
import { afterAll, describe, expect, it } from 'vitest';
import { startDaemon, tempDataDir, type TestDaemon } from '../support/daemon.js';
import { waitFor } from '../support/poll.js';

const OUTAGE_MS = 5_000;

describe('following across an engine restart', () => {
  const tmp = tempDataDir();
  let daemon: TestDaemon | undefined;
  afterAll(async () => {
    await daemon?.stop();
    tmp.remove();
  });

  it('lanes wait ID, log --follow and events --follow during a 5 s restart end as the job ends, not with 1', async () => {
    daemon = await startDaemon({ dataDir: tmp.dir, args: ['--grace', '0'] });
    // A job that prints, then runs on as the engine goes: stopped with it, it runs again once the
    // engine is back. A quick job beside it shows `lanes wait` following before the engine goes.
    const quick = await daemon.cli('add', '--', 'true');
    const long = await daemon.cli('add', '--', 'sh', '-c', 'echo before; sleep 4; echo after-the-restart');
    expect([long.code, quick.code], long.stderr + quick.stderr).toEqual([0, 0]);
    const [id, quickId] = [long.stdout.trim(), quick.stdout.trim()];
    const wait = daemon.spawn('wait', quickId, id);
    const log = daemon.spawn('log', '--follow', id);
    const events = daemon.spawn('events', '--follow');
    await Promise.all([wait.line(new RegExp(`^job ${quickId}: succeeded`)), log.line(/^before$/), events.line(/^TIME/)]);
    await daemon.stop();
    await new Promise((r) => setTimeout(r, OUTAGE_MS));
    daemon = await startDaemon({ dataDir: tmp.dir, args: ['--grace', '0'] });

    const waited = await wait.done;
    expect(waited.code, waited.stderr).toBe(0);
    expect(waited.stdout).toMatch(new RegExp(`^job ${id}: succeeded`, 'm'));
    expect(waited.stderr).toMatch(/lost the engine; waiting/);
    // Stopped with the first engine and run again by the second, or (on a quick machine) ended in
    // its worker and recorded by the second: either way it succeeded, and is said to have.
    expect((await daemon.cli('show', id)).stdout).toMatch(new RegExp(`^job ${id} in lane worker: succeeded`));
    const logged = await log.done;
    expect(logged.code, logged.stderr).toBe(0);
    expect(logged.stdout).toContain('after-the-restart');
    // The ledger follower is still there, following the new engine: it sees it start.
    await waitFor(() => (events.stdout().match(/engine started/g) ?? []).length >= 2, 'the second engine in the ledger', 30_000);
    expect(events.child.exitCode).toBeNull();
    events.child.kill('SIGINT');
    await events.done;
  }, 90_000);
});
