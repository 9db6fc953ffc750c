// `lanes pause --lane NAME --for 15m` against a real daemon: that lane only is held, `lanes status`
// says until when, another lane runs meanwhile, and `lanes resume --lane NAME` lets it go on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDaemon, tempDataDir, type TestDaemon } from '../support/daemon.js';

describe('pausing one lane from the command line', () => {
  const tmp = tempDataDir();
  let daemon: TestDaemon;
  beforeAll(async () => {
    daemon = await startDaemon({ dataDir: tmp.dir });
  });
  afterAll(async () => {
    await daemon?.stop();
    tmp.remove();
  });

  it('holds that lane only, and says until when', async () => {
    expect((await daemon.cli('lane', 'add', 'deploy', '--cap', '1')).code).toBe(0);
    const paused = await daemon.cli('pause', '--lane', 'deploy', '--for', '15m');
    expect(paused.code, paused.stderr).toBe(0);
    expect(paused.stdout).toMatch(/^lane deploy paused until \d\d:\d\d(:\d\d)?$/m);
    const held = (await daemon.cli('add', '--lane', 'deploy', '--', 'true')).stdout.trim();
    const other = (await daemon.cli('add', '--', 'true')).stdout.trim();
    const waited = await daemon.cli('wait', other);
    expect(waited.code, waited.stderr).toBe(0);
    const status = (await daemon.cli('status')).stdout;
    expect(status).toMatch(/^deploy: paused until \d\d:\d\d(:\d\d)?$/m);
    expect(status).not.toMatch(/All work paused/);
    expect((await daemon.cli('show', held)).stdout).toMatch(/^job \d+ in lane deploy: (queued|waiting)/m);

    const resumed = await daemon.cli('resume', '--lane', 'deploy');
    expect(resumed.stdout.trim()).toBe('lane deploy resumed');
    expect((await daemon.cli('wait', held)).code).toBe(0);
  }, 60_000);

  it('--until tomorrow; a word it does not know is a usage error, and a lane it does not know is named', async () => {
    const json = JSON.parse((await daemon.cli('pause', '--lane', 'deploy', '--until', 'tomorrow', '--json')).stdout) as { paused: { until: number } };
    const at = new Date(json.paused.until);
    expect([at.getHours(), at.getMinutes()]).toEqual([8, 0]);
    expect(json.paused.until).toBeGreaterThan(Date.now());
    const bad = await daemon.cli('pause', '--until', 'soon');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--until takes "tomorrow"/);
    const typo = await daemon.cli('pause', '--lane', 'deplyo', '--for', '1h');
    expect(typo.code).toBe(1);
    expect(typo.stderr).toMatch(/did you mean "deploy"/);
    expect((await daemon.cli('resume', '--lane', 'deploy')).code).toBe(0);
  }, 60_000);
});
