// A job's number is its own for ever, against real `lanes daemon` processes and their SQLite
// files, with a keep short enough that jobs are cleaned between one add and the next: each round
// adds a job, waits for it, and waits for the engine's own event that it was cleaned (the
// "sleep 3 s past the keep", without sleeping). Ids never come round again — across an engine
// restart, after `lanes clean`, on a database made by the previous release — and `lanes wait` of
// each says how its own job ended; no job's `lanes log` shows a line another job wrote.
import { afterAll, describe, expect, it } from 'vitest';
import type { LanesEvent } from '../../shared/events.js';
import { startDaemon, tempDataDir, type TestDaemon } from '../support/daemon.js';
import { recordEvents, type EventRecorder } from '../support/events.js';
import { previousRelease } from '../support/previous-release.js';

const KEEP = { LANES_KEEP: '2s' };

/** A daemon on `dir` with its events recorded from the start; `restart` stops it and starts another there. */
async function keptDaemon(dir: string, env: Record<string, string>) {
  let daemon: TestDaemon = await startDaemon({ dataDir: dir, env });
  let events: EventRecorder = await recordEvents(daemon.client);
  return {
    get daemon() {
      return daemon;
    },
    /** Resolves once job `id` was cleaned (the engine's `jobs` event, change `removed`). */
    cleaned: (id: number) => events.next((e: LanesEvent) => e.type === 'jobs' && e.data.change === 'removed' && e.data.ids.includes(id), 60_000),
    finished: (id: number) => events.next((e: LanesEvent) => e.type === 'job' && e.data.id === id && ['succeeded', 'failed'].includes(e.data.state), 60_000),
    async restart() {
      events.close();
      expect(await daemon.stop()).toBe(0);
      daemon = await startDaemon({ dataDir: dir, env });
      events = await recordEvents(daemon.client);
    },
    async stop() {
      events.close();
      return daemon.stop();
    },
  };
}

/** Exit 0 for a job that exits 0; `failed (exit N)` for the others. */
const ownEnd = (round: number) => round % 4;

/**
 * 50 rounds: add a job whose exit code is its round's, wait for its end, and wait until it is
 * cleaned — by the keep, or every fifth round by `lanes clean` — with the engine restarted
 * halfway. Then `lanes wait` of all of them reports each one's own job's end.
 */
async function fiftyRounds(dir: string): Promise<number[]> {
  const d = await keptDaemon(dir, KEEP);
  const ids: number[] = [];
  try {
    for (let round = 0; round < 50; round++) {
      if (round === 25) await d.restart();
      const { id } = await d.daemon.api('addJob', { argv: ['sh', '-c', `exit ${ownEnd(round)}`], maxAttempts: 1 });
      await d.finished(id);
      if (round % 5 === 4) expect(await d.daemon.api('clean', {})).toMatchObject({ removed: 1 });
      await d.cleaned(id);
      ids.push(id);
    }
    expect(new Set(ids).size).toBe(50);
    const words = (round: number, id: number) => `job ${id}: ${ownEnd(round) === 0 ? 'succeeded' : `failed (exit ${ownEnd(round)})`}`;
    const all = await d.daemon.cli('wait', ...ids.map(String));
    expect(all.stdout.trimEnd().split('\n')).toEqual(ids.map((id, round) => words(round, id)));
    expect(all.code).toBe(1);
    for (const round of [0, 1, 48, 49]) {
      const one = await d.daemon.cli('wait', String(ids[round]));
      expect([one.code, one.stdout]).toEqual([ownEnd(round) === 0 ? 0 : 1, `${words(round, ids[round]!)}\n`]);
    }
    // What `wait --json` says of a cleaned job is its record, and nothing it does not know.
    const [json] = JSON.parse((await d.daemon.cli('wait', '--json', String(ids[1]))).stdout) as Record<string, unknown>[];
    expect(Object.keys(json!).sort()).toEqual(['cleanedAt', 'exitCode', 'finishedAt', 'id', 'lane', 'state']);
    expect(json).toMatchObject({ id: ids[1], state: 'failed', exitCode: 1, lane: 'worker' });
  } finally {
    expect(await d.stop()).toBe(0);
  }
  return ids;
}

describe.concurrent('with LANES_KEEP=2s, rounds of add, wait and cleaning', () => {
  const fresh = tempDataDir('lanes-ids-');
  const old = tempDataDir('lanes-ids-old-');
  const logs = tempDataDir('lanes-ids-logs-');
  afterAll(() => {
    fresh.remove();
    old.remove();
    logs.remove();
  });

  it('give 50 distinct ids on a fresh data directory, across a restart and `lanes clean`, each waited for as its own job ended', async () => {
    const ids = await fiftyRounds(fresh.dir);
    // Numbered on, never from 1 again: each round's job is the next number.
    expect(ids).toEqual(Array.from({ length: 50 }, (_, i) => ids[0]! + i));
  }, 600_000);

  it('give 50 distinct ids on a database made by the previous release, all above every id it had given', async () => {
    const { highestId } = previousRelease(old.dir);
    const ids = await fiftyRounds(old.dir);
    expect(Math.min(...ids)).toBeGreaterThan(highestId);
  }, 600_000);

  it('in 200 rounds, no job’s log shows a line its own command did not write, while the jobs before it are cleaned', async () => {
    const d = await keptDaemon(logs.dir, KEEP);
    let readByCli = 0;
    try {
      for (let round = 0; round < 200; round++) {
        // Both streams, so the job's files are joined when it ends (the case a reused number mixed up).
        const { id } = await d.daemon.api('addJob', { shell: `echo OUT-${round}-a; echo ERR-${round} >&2; echo OUT-${round}-b`, maxAttempts: 1 });
        await d.finished(id);
        // Read at once, through the API (a keep is seconds away)…
        expect((await d.daemon.api('logTail', { id, stream: 'stdout' })).text, `round ${round}, job ${id}`).toBe(`OUT-${round}-a\nOUT-${round}-b\n`);
        expect((await d.daemon.api('logTail', { id, stream: 'stderr' })).text).toBe(`ERR-${round}\n`);
        const both = (await d.daemon.api('logTail', { id, stream: 'all' })).text;
        expect(both.split('\n').filter(Boolean).sort()).toEqual([`ERR-${round}`, `OUT-${round}-a`, `OUT-${round}-b`]);
        // …and by `lanes log`, which a loaded machine may start after the job was cleaned: then it
        // says so and shows nothing, and never another job's lines.
        const cli = await d.daemon.cli('log', '--all', String(id));
        if (cli.code === 0) {
          expect(cli.stdout).toBe(both);
          readByCli++;
        } else expect(cli.stderr).toContain(`job ${id} in lane worker succeeded at`);
        // Every twentieth round, everything so far is cleaned before the next job is added: the
        // moment a reused number would have met the files of the job that had it.
        if (round % 20 === 19) await d.cleaned(id);
      }
      expect(readByCli).toBeGreaterThan(0);
    } finally {
      expect(await d.stop()).toBe(0);
    }
  }, 600_000);
});
