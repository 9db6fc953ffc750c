// The window stays live: the scale timeline draws and lists why the fleet changed, and when the
// engine goes away and comes back the window says so and catches up by itself.
import { test, expect, laneRow, startWindowDaemon } from './fixtures.js';

test('the scale timeline charts each lane and lists the ledger with reasons', async ({ lanes: page, daemon }) => {
  await daemon.cli('add', '--', 'sleep', '2');
  await expect(laneRow(page, 'worker').locator('.pips .pip-busy')).toHaveCount(1);
  await page.getByRole('tab', { name: 'Scale timeline' }).click();
  await expect(page.locator('figure.chart[data-lane="worker"] canvas')).toBeVisible();
  await expect(page.locator('.chart-quiet[data-lane="ml"]')).toContainText('no workers and nothing waiting');
  const ledger = page.getByTestId('ledger');
  await expect(ledger.locator('li').first()).toContainText('0 → 1');
  await expect(ledger).toContainText('Work waiting');
  // The worker is given back once the lane is idle; the ledger hears about it live.
  await expect(ledger.locator('li').first()).toContainText('1 → 0', { timeout: 15_000 });
});

test('reconnects by itself after the engine restarts, and catches up', async ({ lanes: page, daemon }) => {
  await daemon.stop();
  await expect(page.getByRole('status').filter({ hasText: 'Reconnecting…' })).toBeVisible();
  await expect(page.getByTestId('stale')).toContainText('Lost touch with the engine');
  const again = await startWindowDaemon({ dataDir: daemon.dataDir, port: daemon.port });
  try {
    await again.cli('add', '--lane', 'ml', '--', 'echo', 'after the restart');
    await expect(page.getByRole('status').filter({ hasText: 'Connected' })).toBeVisible({ timeout: 15_000 });
    await expect(page.getByTestId('stale')).toHaveCount(0);
    await expect(laneRow(page, 'ml').getByTestId('waiting')).toHaveText('1');
    await expect(page.locator('[data-job-id]').first()).toContainText('after the restart');
  } finally {
    await again.stop();
  }
});

test('without the right token the window says how to open it properly', async ({ page, daemon }) => {
  await page.goto(daemon.url.replace(/#token=\w+/, '#token=not-the-token'));
  await expect(page.getByText('This window’s token was not accepted')).toBeVisible();
  await expect(page.getByText('lanes open')).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Token refused' })).toBeVisible();
  // The address bar no longer shows the token, right or wrong.
  expect(new URL(page.url()).hash).toBe('');
});
