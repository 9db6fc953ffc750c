// `lanes status` on a machine whose GPU a fixture nvidia-smi stands in for (test/fixtures/gpu):
// a real daemon and CLI, an ml lane of workers that each hold 6,000 MiB of a 24,576 MiB card. The
// text names the card and the lane's GPU limit; `--json` names the GPU as what holds Lanes back.
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDaemon, tempDataDir, type TestDaemon } from '../support/daemon.js';
import { recordEvents, type EventRecorder } from '../support/events.js';

const fixture = join(import.meta.dirname, '..', 'fixtures', 'gpu', 'nvidia-smi');

describe('lanes status with a GPU', () => {
  const tmp = tempDataDir();
  const bin = join(tmp.dir, 'gpu-bin');
  let daemon: TestDaemon;
  let events: EventRecorder;
  beforeAll(async () => {
    mkdirSync(join(bin, 'apps'), { recursive: true });
    copyFileSync(fixture, join(bin, 'nvidia-smi'));
    writeFileSync(join(bin, 'cards'), '0,GPU-fix-0,Fixture Card 24G,24576,300\n');
    daemon = await startDaemon({ dataDir: join(tmp.dir, 'data'), env: { PATH: `${bin}:${process.env.PATH}`, LANES_CORES: '8', LANES_SAMPLE_MS: '150' } });
    events = await recordEvents(daemon.client);
  });
  afterAll(async () => {
    events?.close();
    await daemon?.stop();
    tmp.remove();
  });

  it('names the card and the GPU limit, in text and in --json', async () => {
    const worker = join(tmp.dir, 'gpu-worker.cjs');
    writeFileSync(
      worker,
      `const fs = require('fs');
const file = ${JSON.stringify(join(bin, 'apps'))} + '/' + process.pid;
require('readline').createInterface({ input: process.stdin }).on('line', (line) => {
  if (!fs.existsSync(file)) fs.writeFileSync(file + '.tmp', 'GPU-fix-0,6000\\n'), fs.renameSync(file + '.tmp', file);
  setTimeout(() => process.stdout.write(JSON.stringify({ id: JSON.parse(line).id, ok: true, result: 1 }) + '\\n'), 150);
});\n`,
    );
    expect((await daemon.cli('lane', 'add', 'models', '--class', 'ml', '--cap', '7', '--', process.execPath, worker)).code).toBe(0);
    const jobs = join(tmp.dir, 'jobs');
    writeFileSync(jobs, '{}\n'.repeat(200));
    expect((await daemon.cli('add', '--lane', 'models', '--from', jobs)).code).toBe(0);
    await events.next((e) => e.type === 'lane' && e.data.name === 'models' && e.data.limit?.by === 'gpu' && /memory for [34] of these workers, about/.test(e.data.limit.text), 60_000);

    const text = (await daemon.cli('status')).stdout;
    expect(text).toMatch(/^GPU: Fixture Card 24G — 24 GB, .* in use/m);
    expect(text).toMatch(/^models: the GPU has memory for [34] of these workers, about 5\.9 GB each$/m);
    const json = JSON.parse((await daemon.cli('status', '--json')).stdout) as { machine: { limitedBy: string; gpuMemory: string; gpus: unknown[] }; lanes: { name: string; limit: { by: string } | null }[] };
    expect(json.machine).toMatchObject({ limitedBy: 'gpu', gpuMemory: 'nvidia' });
    expect(json.machine.gpus).toHaveLength(1);
    expect(json.lanes.find((l) => l.name === 'models')!.limit).toMatchObject({ by: 'gpu' });
    expect((await daemon.cli('cancel', '--lane', 'models', '--state', 'queued')).code).toBe(0);
  }, 120_000);
});
