// An answered add is kept: a real `lanes daemon` takes single adds over its socket from 8 callers
// at once and one more one after another (the group commit's rounds of many and of one), and is
// sent SIGKILL the moment the answers reach a count, requests still in flight. Started again on
// the same data directory, it must hold every job it answered for, each as it was sent — and the
// ids it gave out are never given again. (A kill -9 cannot lose what the page cache holds; the
// sync itself is group-sync.test.ts's, which holds a sync open and sees no writer answered.)
import { afterAll, describe, expect, it } from 'vitest';
import { startDaemon, tempDataDir, type TestDaemon } from '../support/daemon.js';

const LANE = 'parked';
const KILLS = 3;
/** Answers before each kill. */
const ANSWERS = 300;

interface Answered {
  id: number;
  argv: string[];
}

/** Adds one job per request from `callers` at once plus one caller in a row, until `stop` says so; what was answered. */
async function addUntilKilled(d: TestDaemon, round: number, kill: () => void): Promise<Answered[]> {
  const answered: Answered[] = [];
  let sent = 0;
  const caller = async () => {
    for (;;) {
      const argv = ['true', `round ${round}`, `add ${sent++}`];
      let id: number;
      try {
        ({ id } = await d.api('addJob', { lane: LANE, argv }));
      } catch {
        // The engine is gone: a request in flight was never answered, and promised nothing.
        return;
      }
      answered.push({ id, argv });
      if (answered.length === ANSWERS) kill();
    }
  };
  await Promise.all([...Array.from({ length: 8 }, caller), caller()]);
  return answered;
}

describe('kill -9 after answered adds', () => {
  const tmp = tempDataDir('lanes-answered-');
  let daemon: TestDaemon | undefined;
  afterAll(async () => {
    await daemon?.stop();
    tmp.remove();
  });

  it(`${KILLS} kills, each right after ${ANSWERS} answers with adds in flight: every answered job is there after a restart, as it was sent`, async () => {
    daemon = await startDaemon({ dataDir: tmp.dir, args: ['--grace', '0'] });
    await daemon.api('addLane', { name: LANE, cap: 0 });
    const all: Answered[] = [];
    for (let round = 0; round < KILLS; round++) {
      const d: TestDaemon = daemon;
      const answered = await addUntilKilled(d, round, () => d.process.child.kill('SIGKILL'));
      await d.process.done;
      expect(answered.length).toBeGreaterThanOrEqual(ANSWERS);
      all.push(...answered);
      daemon = await startDaemon({ dataDir: tmp.dir, args: ['--grace', '0'] });
      const found = [];
      for (const { id } of all) found.push(await daemon.api('job', { id }));
      expect(found.map((j) => [j.id, j.state, j.spec.kind === 'argv' ? j.spec.argv : j.spec])).toEqual(all.map((a) => [a.id, 'queued', a.argv]));
    }
    expect(new Set(all.map((a) => a.id)).size).toBe(all.length);
  }, 120_000);
});
