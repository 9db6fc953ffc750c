// The window explains itself the first time: two sentences on lanes, caps and the nudge until the
// person dismisses them (remembered), and back from the "?" in the header. A lane that runs nothing
// says why beside it, and every lane counts its failed jobs, one click from the jobs themselves.
import { test, expect, laneRow } from './fixtures.js';

test('the help shows on the first visit, stays dismissed, and comes back from "?"', async ({ lanes: page }) => {
  const help = page.getByTestId('help');
  const toggle = page.getByRole('button', { name: 'How Lanes works' });
  await expect(help).toBeVisible();
  await expect(help).toContainText(/A lane is .+ its cap is the most workers it may run at once/);
  await expect(help).toContainText(/the lane shows a nudge/);
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');

  await help.getByRole('button', { name: 'Got it' }).click();
  await expect(help).toHaveCount(0);
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await page.reload();
  await expect(page.locator('li.lane').first()).toBeVisible();
  await expect(help).toHaveCount(0);

  await toggle.click();
  await expect(help).toBeVisible();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  // Opened on purpose, it closes from "?" as well, and still does not open by itself.
  await toggle.click();
  await expect(help).toHaveCount(0);
  await page.reload();
  await expect(page.locator('li.lane').first()).toBeVisible();
  await expect(help).toHaveCount(0);
});

test('a lane that is off says why beside it, and the reason goes when the cap is raised', async ({ lanes: page }) => {
  const ml = laneRow(page, 'ml');
  await expect(ml.getByTestId('mood')).toHaveText('Off');
  await expect(ml.getByTestId('lane-reason')).toHaveText('ml lanes start off — raise the cap to run jobs');
  await expect(ml.getByTestId('lane-reason')).toBeVisible();
  await expect(laneRow(page, 'worker').getByTestId('lane-reason')).toHaveCount(0);
  await expect(ml.locator('.tag')).toHaveAttribute('title', /without a worker command/);

  await ml.getByRole('button', { name: 'Raise the cap of ml' }).click();
  await expect(ml.getByTestId('mood')).toHaveText('Idle');
  await expect(ml.getByTestId('lane-reason')).toHaveCount(0);
});

test('each lane counts its failed jobs, and the count opens them', async ({ lanes: page, daemon }) => {
  await daemon.cli('lane', 'add', 'thumbs');
  const failed = (await daemon.cli('add', '--lane', 'thumbs', '--attempts', '1', '--', 'sh', '-c', 'exit 2')).stdout.trim();
  await daemon.cli('add', '--lane', 'thumbs', '--', 'true');
  await daemon.cli('add', '--attempts', '1', '--', 'false');
  const thumbs = laneRow(page, 'thumbs');
  await expect(thumbs.getByTestId('failed')).toHaveText('1');
  await expect(laneRow(page, 'worker').getByTestId('failed')).toHaveText('1');
  await expect(laneRow(page, 'ml').getByTestId('failed')).toHaveText('0');

  await thumbs.getByRole('button', { name: '1' }).click();
  await expect(page.getByLabel('Lane', { exact: true })).toHaveValue('thumbs');
  await expect(page.getByLabel('State', { exact: true })).toHaveValue('failed');
  await expect(page.locator('[data-job-id]')).toHaveCount(1);
  await expect(page.locator(`[data-job-id="${failed}"]`)).toBeVisible();
});
