// The window sees the GPU: a fixture nvidia-smi on the daemon's PATH (test/fixtures/gpu) stands in
// for a 24,576 MiB card, and an ml lane's workers each hold 6,000 MiB of it. The header says the
// GPU holds the lane back, the lane's row says how many fit, and the machine's facts list the card.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect, laneRow } from './fixtures.js';
import { dismissHelp } from './scene.js';

const bin = mkdtempSync(join(tmpdir(), 'lanes-gpu-'));
mkdirSync(join(bin, 'apps'));
copyFileSync(join(import.meta.dirname, '..', 'fixtures', 'gpu', 'nvidia-smi'), join(bin, 'nvidia-smi'));
writeFileSync(join(bin, 'cards'), '0,GPU-fix-0,Fixture Card 24G,24576,300\n');
const worker = join(bin, 'gpu-worker.cjs');
writeFileSync(
  worker,
  `const fs = require('fs');
const file = ${JSON.stringify(join(bin, 'apps'))} + '/' + process.pid;
require('readline').createInterface({ input: process.stdin }).on('line', (line) => {
  if (!fs.existsSync(file)) fs.writeFileSync(file + '.tmp', 'GPU-fix-0,6000\\n'), fs.renameSync(file + '.tmp', file);
  setTimeout(() => process.stdout.write(JSON.stringify({ id: JSON.parse(line).id, ok: true, result: 1 }) + '\\n'), 200);
});\n`,
);

test.afterAll(() => rmSync(bin, { recursive: true, force: true }));

test.describe('a 24,576 MiB card', () => {
  test.use({ daemonEnv: { PATH: `${bin}:${process.env.PATH}`, LANES_CORES: '8', LANES_SAMPLE_MS: '150' } });

  test('an ml lane of 6,000 MiB workers: the GPU holds it back, its row says how many fit, the facts list the card', async ({ lanes: page, daemon }) => {
    await dismissHelp(page);
    await daemon.api('addLane', { name: 'models', class: 'ml', cap: 7, workerCommand: [process.execPath, worker] });
    await daemon.api('addJobs', { jobs: Array.from({ length: 300 }, (_, n) => ({ lane: 'models', payload: { n } })) });
    const models = laneRow(page, 'models');
    await expect(models.getByTestId('lane-limit')).toContainText(/the GPU has memory for 3 of these workers, about 5\.9 GB each/, { timeout: 60_000 });
    await expect(page.getByTestId('holding-back')).toHaveText('The GPU holds back models');
    await page.getByRole('button', { name: /The GPU holds back models/ }).click();
    const facts = page.getByTestId('machine-facts');
    await expect(facts).toBeVisible();
    await expect(facts).toContainText(/GPUFixture Card 24G — 24 GB, .* in use \(.* by Lanes' workers\), .* more for workers/);
    await page.keyboard.press('Escape');
    await daemon.api('cancelJobs', { lane: 'models', state: 'queued' });
  });
});
