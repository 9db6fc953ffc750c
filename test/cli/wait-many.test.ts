// `lanes wait` for a batch, against a real `lanes daemon`: many ids close together are read in
// pages when the feed opens, and every asked job is answered once, in the order asked, whether it
// had finished, had been cleaned, failed, or finishes only while the wait is under way.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { FinishedJob } from '../../shared/model.js';
import { tempDataDir } from '../support/daemon.js';
import { daemonForFile } from '../support/daemon-suite.js';

describe('lanes wait for many jobs', () => {
  const t = daemonForFile();
  const work = tempDataDir('lanes-wait-many-');
  afterAll(() => work.remove());

  const addAll = async (jobs: object[]) => (await t.daemon.client.call('addJobs', { jobs })).ids;

  it('answers a batch of finished, cleaned, failed and still-running jobs once each, in the order asked', async () => {
    const early = await addAll(Array.from({ length: 25 }, () => ({ argv: ['true'] })));
    expect((await t.daemon.cli('wait', ...early.map(String))).code).toBe(0);
    expect((await t.daemon.cli('clean', '--state', 'succeeded')).code).toBe(0);

    const release = join(work.dir, 'go');
    const late = await addAll([
      ...Array.from({ length: 20 }, () => ({ argv: ['true'] })),
      { argv: ['sh', '-c', 'exit 3'], maxAttempts: 1 },
      { argv: ['sh', '-c', `while [ ! -f ${release} ]; do sleep 0.05; done`] },
    ]);
    const held = late.at(-1)!;
    const failed = late.at(-2)!;
    // Asked out of order and with a repeat: answered in the order asked, each once.
    const asked = [held, ...early.slice().reverse(), ...late.slice(0, -1), early[3]!];
    const waiting = t.daemon.cli('wait', '--json', ...asked.map(String));
    // The held job can only end once the wait has been asked for it; the wait then sees it end.
    expect(existsSync(release)).toBe(false);
    writeFileSync(release, '');
    const res = await waiting;
    expect(res.code).toBe(1);
    const answered = JSON.parse(res.stdout) as FinishedJob[];
    const unique = [...new Set(asked)];
    expect(answered.map((j) => j.id)).toEqual(unique);
    const byId = new Map(answered.map((j) => [j.id, j]));
    for (const id of early) expect(byId.get(id)).toMatchObject({ state: 'succeeded', cleanedAt: expect.any(Number) });
    expect(byId.get(failed)).toMatchObject({ state: 'failed', exitCode: 3 });
    expect(byId.get(held)).toMatchObject({ state: 'succeeded', exitCode: 0 });
    expect(answered.filter((j) => j.state === 'succeeded')).toHaveLength(unique.length - 1);
  });
});
