// The fuller Add job form against a real engine in a real browser: a folder that does not exist is
// refused at the folder field, a bad priority at its own; a job added to run after a running one
// waits, says so in the list and in its facts, and runs once that one succeeded. With
// LANES_SCREENSHOTS=1 it also takes the pictures of the form and of the waiting job.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect } from './fixtures.js';
import { dismissHelp } from './scene.js';
import { shootIfAsked } from './shoot.js';

test.use({ viewport: { width: 1100, height: 860 } });

test('the Add job form: folder, env, attempts, timeout, after, delay, priority, labels; errors at the field; a job waiting for another', async ({ lanes: page, daemon }) => {
  const dir = mkdtempSync(join(tmpdir(), 'lanes-form-'));
  try {
    await dismissHelp(page);
    await daemon.api('setCap', { lane: 'worker', cap: 2 });
    const first = await daemon.api('addJob', { shell: 'sleep 4 && echo converted', cwd: dir });
    await expect(page.locator(`[data-job-id="${first.id}"] .badge`)).toHaveText('Running', { timeout: 15_000 });

    await page.getByRole('button', { name: 'Add job…' }).click();
    const form = page.getByTestId('add-job');
    await form.getByLabel('Command line').fill('echo "uploading $TARGET"');
    await form.getByLabel('Folder').fill(join(dir, 'no-such-folder'));
    await form.getByLabel('Environment').fill('TARGET=photos.example');
    await form.getByLabel('Attempts').fill('2');
    await form.getByLabel('Timeout').fill('10m');
    await form.getByLabel('Run after').selectOption(String(first.id));
    await form.getByLabel('Priority').fill('101');
    await form.getByLabel('Labels').fill('nightly, photos');
    await form.getByRole('button', { name: 'Add job' }).click();
    // The form's own check, at its field; nothing was sent.
    await expect(form.locator('[data-field="priority"] .field-error')).toHaveText('priority is a whole number from -100 to 100');
    await form.getByLabel('Priority').fill('5');
    await form.getByRole('button', { name: 'Add job' }).click();
    // The engine's refusal, at the field it names.
    await expect(form.locator('[data-field="cwd"] .field-error')).toContainText('no-such-folder');
    await expect(form.getByLabel('Folder')).toHaveAttribute('aria-invalid', 'true');
    await form.getByLabel('Folder').fill(dir);
    await form.getByLabel('When it may start').selectOption('delay');
    await form.getByLabel('Delay').fill('1s');
    await shootIfAsked(page, 'add-job-full', form);
    await form.getByRole('button', { name: 'Add job' }).click();
    await expect(form).toHaveCount(0);

    const page1 = await daemon.api('listJobs', { label: 'nightly' });
    expect(page1.jobs).toHaveLength(1);
    const second = page1.jobs[0]!;
    expect(second).toMatchObject({ priority: 5, labels: ['nightly', 'photos'], waitingFor: 1, command: 'echo "uploading $TARGET"' });
    const row = page.locator(`[data-job-id="${second.id}"]`);
    await expect(row.locator('.badge')).toHaveText('Waiting');
    await row.click();
    await expect(page.getByTestId('runs-after')).toContainText(`${first.id}`);
    await expect(page.getByTestId('runs-after')).toContainText('sleep 4 && echo converted');
    await shootIfAsked(page, 'job-waiting');

    await expect(row.locator('.badge')).toHaveText('Succeeded', { timeout: 30_000 });
    const done = await daemon.api('job', { id: second.id });
    const before = await daemon.api('job', { id: first.id });
    expect(done.startedAt!).toBeGreaterThanOrEqual(before.finishedAt!);
    await expect(page.getByTestId('log-text')).toContainText('uploading photos.example');

    // The search box's label:NAME is the label filter.
    await page.getByLabel('Search commands').fill('label:nightly');
    await expect(page.locator('[data-job-id]')).toHaveCount(1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
