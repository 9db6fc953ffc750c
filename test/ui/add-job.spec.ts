// The fuller Add job form against a real engine in a real browser: every field the form can check
// is refused at once, each at its own field, and a folder that does not exist at the folder
// field; the job to run after is picked by typing its id (a search by command offers the running
// job and never a failed one, and a failed job's typed id says why it is not taken); a job added
// to run after a running one waits, says so in the list and in its facts, and runs once that one
// succeeded. With
// LANES_SCREENSHOTS=1 it also takes the pictures of the form and of the waiting job.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
    // Runs until the test says go, so the second waits as long as the test looks at it.
    writeFileSync(join(dir, 'convert.sh'), '#!/bin/sh\nwhile [ ! -f go ]; do sleep 0.1; done\necho converted "$1"\n', { mode: 0o755 });
    const broken = await daemon.api('addJob', { shell: 'echo convert-broken; exit 1', maxAttempts: 1 });
    await expect(page.locator(`[data-job-id="${broken.id}"] .badge`)).toHaveText('Failed', { timeout: 15_000 });
    const first = await daemon.api('addJob', { shell: './convert.sh photos', cwd: dir });
    await expect(page.locator(`[data-job-id="${first.id}"] .badge`)).toHaveText('Running', { timeout: 15_000 });

    await page.getByRole('button', { name: 'Add job…' }).click();
    const form = page.getByTestId('add-job');
    await form.getByLabel('Command line').fill('echo "uploading $TARGET"');
    await form.getByLabel('Folder').fill(join(dir, 'no-such-folder'));
    await form.getByLabel('Environment').fill('TARGET=photos.example');
    await form.getByLabel('Attempts').fill('2');
    await form.getByLabel('Timeout').fill('soon');

    // Run after: a search by command offers the running job that matches, never the failed one.
    const after = form.getByRole('combobox', { name: 'Run after' });
    await after.fill('convert');
    const options = form.getByTestId('after-options').getByRole('option');
    await expect(options.filter({ hasText: './convert.sh photos' })).toHaveCount(1);
    await expect(options.filter({ hasText: 'convert-broken' })).toHaveCount(0);
    // Typed, a failed job's id is said, not taken.
    await after.fill(String(broken.id));
    await after.press('Enter');
    await expect(form.locator('.after-note')).toHaveText(`job ${broken.id} failed, so a job after it would never run`);
    await expect(form.getByTestId('after-chip')).toHaveCount(0);
    // Typed, a running job's id is set: a chip naming it, apart from any suggestion.
    await after.fill(String(first.id));
    await expect(options).toHaveText([new RegExp(`^${first.id}\\s+\\./convert\\.sh photos`)]);
    await after.press('Enter');
    await expect(form.getByTestId('after-chip')).toHaveCount(1);
    await expect(form.getByTestId('after-chip')).toContainText(`${first.id}./convert.sh photos`);
    await expect(after).toHaveValue('');

    await form.getByLabel('Priority').fill('101');
    await form.getByLabel('Labels').fill('nightly, photos');
    await form.getByRole('button', { name: 'Add job' }).click();
    // The form's own checks, all at once, each at its field; nothing was sent.
    await expect(form.locator('[data-field="priority"] .field-error')).toHaveText('priority is a whole number from -100 to 100');
    await expect(form.locator('[data-field="timeout"] .field-error')).toHaveText('a timeout is a span like 90s, 15m or 2h');
    expect((await daemon.api('listJobs', { label: 'nightly' })).jobs).toHaveLength(0);
    await form.getByLabel('Timeout').fill('10m');
    await form.getByLabel('Priority').fill('5');
    await form.getByRole('button', { name: 'Add job' }).click();
    // The engine's refusal, at the field it names.
    await expect(form.locator('[data-field="cwd"] .field-error')).toContainText('no-such-folder');
    // In the form's word for it, not the request's.
    await expect(form.locator('[data-field="cwd"] .field-error')).toHaveText(/^the folder must be /);
    await expect(form.getByLabel('Folder')).toHaveAttribute('aria-invalid', 'true');
    await form.getByLabel('When it may start').selectOption('delay');
    await form.getByLabel('Delay').fill('1s');
    await shootIfAsked(page, 'add-job-full', form);
    await form.getByLabel('Folder').fill(dir);
    await expect(form.locator('[data-field="cwd"] .field-error')).toHaveCount(0);
    await form.getByRole('button', { name: 'Add job' }).click();
    await expect(form).toHaveCount(0);

    const page1 = await daemon.api('listJobs', { label: 'nightly' });
    expect(page1.jobs).toHaveLength(1);
    const second = page1.jobs[0]!;
    expect(second).toMatchObject({ priority: 5, labels: ['nightly', 'photos'], waitingFor: 1, command: 'echo "uploading $TARGET"' });
    const row = page.locator(`[data-job-id="${second.id}"]`);
    await expect(row.locator('.badge')).toHaveText('After 1 job');
    await row.click();
    await expect(page.getByTestId('runs-after')).toContainText(`${first.id}`);
    await expect(page.getByTestId('runs-after')).toContainText('./convert.sh photos');
    await shootIfAsked(page, 'job-waiting');

    // The same fields, edited from its detail: what it runs after stays unless changed.
    await page.getByRole('button', { name: 'Edit…' }).click();
    const edit = page.getByTestId('edit-job');
    await expect(edit.getByLabel('Priority')).toHaveValue('5');
    // What it runs after shows as set (a chip), and nothing else does.
    await expect(edit.getByTestId('after-chip')).toHaveCount(1);
    await expect(edit.getByTestId('after-chip')).toHaveAttribute('data-job-id', String(first.id));
    await expect(edit.getByTestId('after-options')).toHaveCount(0);
    await edit.getByLabel('Priority').fill('7');
    await edit.getByLabel('Labels').fill('nightly, edited');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(edit).toHaveCount(0);
    expect(await daemon.api('job', { id: second.id })).toMatchObject({ priority: 7, labels: ['nightly', 'edited'], waitingFor: 1, command: 'echo "uploading $TARGET"' });
    writeFileSync(join(dir, 'go'), '');

    await expect(row.locator('.badge')).toHaveText('Succeeded', { timeout: 30_000 });
    const done = await daemon.api('job', { id: second.id });
    const before = await daemon.api('job', { id: first.id });
    expect(done.startedAt!).toBeGreaterThanOrEqual(before.finishedAt!);
    await expect(page.getByTestId('log-text')).toContainText('uploading photos.example');
    // A finished job runs again as a new one.
    await page.getByRole('button', { name: 'Run again' }).click();
    await expect(page.getByTestId('notice')).toHaveText(new RegExp(`Job ${second.id} runs again as job \\d+\\.`));

    // The search box's label:NAME is the label filter.
    await page.getByLabel('Search commands').fill('label:nightly');
    await expect(page.locator('[data-job-id]')).toHaveCount(2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
