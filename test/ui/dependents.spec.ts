// A dependent has words of its own in a real browser against a real engine: while it waits its
// badge says how many jobs it runs after (never the lane's word "Waiting"); once one of those
// fails it is Blocked, its detail says it did not run and why, with no log pane and no exit code
// (it never ran, so it has neither); a lane holding scheduled jobs names the next one's time.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect, laneRow } from './fixtures.js';
import { dismissHelp } from './scene.js';

test('a dependent waits as "After 1 job", and once that job fails it is Blocked: did not run, no log, no exit code', async ({ lanes: page, daemon }) => {
  const dir = mkdtempSync(join(tmpdir(), 'lanes-deps-'));
  try {
    await dismissHelp(page);
    // Fails once the test says so, so the dependent is queued while it runs.
    writeFileSync(join(dir, 'build.sh'), '#!/bin/sh\nwhile [ ! -f go ]; do sleep 0.1; done\necho "build broke" >&2\nexit 3\n', { mode: 0o755 });
    const first = await daemon.api('addJob', { shell: './build.sh', cwd: dir, maxAttempts: 1 });
    const second = await daemon.api('addJob', { shell: 'echo installing', after: [first.id] });
    const row = page.locator(`[data-job-id="${second.id}"]`);
    await expect(row.locator('.badge')).toHaveText('After 1 job');

    writeFileSync(join(dir, 'go'), '');
    await expect(page.locator(`[data-job-id="${first.id}"] .badge`)).toHaveText('Failed', { timeout: 20_000 });
    await expect(row.locator('.badge')).toHaveText('Blocked');
    await row.click();
    const detail = page.getByTestId('job-detail');
    await expect(detail.getByTestId('job-outcome')).toHaveText(`Did not run: job ${first.id} failed`);
    await expect(detail.getByTestId('job-state')).toHaveText('Blocked');
    await expect(detail.locator('section.log')).toHaveCount(0);
    await expect(detail).not.toContainText('Exit code');

    // The job that ran and failed keeps its log and exit code.
    await page.locator(`[data-job-id="${first.id}"]`).click();
    await expect(detail.getByTestId('job-outcome')).toContainText('Failed');
    // Its headline gives the line its log ended on, where the command said why, beside the exit code.
    await expect(detail.getByTestId('outcome-line')).toHaveText('build broke');
    await expect(detail.getByTestId('job-outcome')).toContainText('exited with code 3');
    await expect(detail.getByTestId('log-text')).toContainText('build broke');
    await expect(detail).toContainText('Exit code3');

    // Counted apart: the lane's Failed is the job that ran; the one that did not run is Blocked.
    const lane = laneRow(page, 'worker');
    await expect(lane.getByTestId('failed')).toHaveText('1+1 blocked');
    const state = page.getByRole('toolbar', { name: 'Filter jobs' }).getByLabel('State');
    await expect(state.locator('option[value="failed"]')).toHaveText('Failed (1)');
    await expect(state.locator('option[value="blocked"]')).toHaveText('Blocked: did not run (1)');
    await lane.getByRole('button', { name: '+1 blocked' }).click();
    await expect(state).toHaveValue('blocked');
    await expect(page.locator('[data-job-id]')).toHaveCount(1);
    await expect(page.locator(`[data-job-id="${second.id}"]`)).toBeVisible();
    await state.selectOption('failed');
    await expect(page.locator('[data-job-id]')).toHaveCount(1);
    await expect(page.locator(`[data-job-id="${first.id}"]`)).toBeVisible();

    // Retry all failed queues the blocked with the failed (the chain runs again in order), and its count says both.
    await page.getByRole('button', { name: 'Retry all failed (1 + 1 blocked)' }).click();
    await expect(page.getByTestId('notice')).toHaveText(/Queued 2 jobs to run again\./);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a lane holding jobs scheduled for several times names the next one, to the minute', async ({ lanes: page, daemon }) => {
  await dismissHelp(page);
  const next = Date.now() + 3 * 3_600_000;
  await daemon.api('addJob', { shell: 'echo later', notBefore: next + 3_600_000 });
  await daemon.api('addJob', { shell: 'echo sooner', notBefore: next });
  const d = new Date(next);
  const hhmm = `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
  await expect(laneRow(page, 'worker').getByTestId('lane-reason')).toHaveText(new RegExp(`^2 scheduled, the next at (\\d{4}-\\d\\d-\\d\\d )?${hhmm}$`));
});
