// A job's progress in the window: a worker built with the Python kit, in fewer than fifteen
// lines, holds mid-job (on a fifo the test writes) while the list's row and the detail show its
// bar and "12 of 40", with the same figures `lanes show --json` prints.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Job } from '../../shared/model.js';
import { test, expect } from './fixtures.js';

test.use({ daemonEnv: { PYTHONPATH: resolve('python') } });

const WORKER = `import lanes_worker

def handle(payload, job):
    for i in range(payload["total"]):
        job.progress(i + 1, payload["total"], "embedding")
        if i + 1 == payload["hold"]:
            open(payload["fifo"]).read()
    return {"embedded": payload["total"]}

lanes_worker.run(handle)
`;

test('a kit worker’s progress: a bar and “12 of 40” in the row and the detail, as lanes show --json says', async ({ lanes: page, daemon }) => {
  const dir = mkdtempSync(join(tmpdir(), 'lanes-progress-ui-'));
  try {
    const script = join(dir, 'embed.py');
    writeFileSync(script, WORKER);
    const fifo = join(dir, 'hold');
    execFileSync('mkfifo', [fifo]);
    await daemon.api('addLane', { name: 'embed', class: 'ml', cap: 1, workerCommand: ['python3', script] });
    const { id } = await daemon.api('addJob', { lane: 'embed', payload: { total: 40, hold: 12, fifo } });

    const row = page.locator(`[data-job-id="${id}"]`);
    await expect(row.getByTestId('job-progress')).toContainText('12 of 40', { timeout: 20_000 });
    await expect(row.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '30');
    await row.click();
    const detail = page.getByTestId('detail-progress');
    await expect(detail).toContainText('12 of 40');
    await expect(detail).toContainText('embedding');
    await expect(detail.getByRole('progressbar')).toHaveAttribute('aria-valuetext', '12 of 40 (30 %) — embedding');

    const shown = JSON.parse((await daemon.cli('show', String(id), '--json')).stdout) as Job;
    expect(shown.progress).toMatchObject({ done: 12, total: 40, fraction: 0.3, message: 'embedding' });

    await writeFile(fifo, 'go\n');
    await expect(page.getByTestId('job-detail').locator('.badge')).toHaveText('Succeeded', { timeout: 20_000 });
    await expect(detail).toContainText('40 of 40');
    await expect(detail).toContainText('when it ended');
    // A finished job's row shows no bar: only a running one has somewhere to get to.
    await expect(row.getByTestId('job-progress')).toHaveCount(0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
