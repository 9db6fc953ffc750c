// Readable at 200 % zoom (the page then has half the CSS width) and operable by keyboard alone:
// nothing runs off the side, the nudge's button stays on screen, the tabs follow the arrow keys.
import type { Page } from '@playwright/test';
import { test, expect, laneRow } from './fixtures.js';
import type { PageGlobals } from './in-page.js';

test.use({ viewport: { width: 550, height: 380 } });

async function overflowX(page: Page): Promise<number> {
  return page.evaluate(() => {
    const g = globalThis as unknown as PageGlobals & { document: { documentElement: { scrollWidth: number; clientWidth: number } } };
    return g.document.documentElement.scrollWidth - g.document.documentElement.clientWidth;
  });
}

test('at 200 % zoom every view fits the width and the nudge can be acted on', async ({ lanes: page, daemon }) => {
  for (let i = 0; i < 3; i++) await daemon.cli('add', '--', 'sleep', '20');
  const nudge = laneRow(page, 'worker').getByTestId('nudge');
  const raise = nudge.getByRole('button', { name: 'Raise to 3' });
  await raise.scrollIntoViewIfNeeded();
  const box = await raise.boundingBox();
  expect(box && box.x >= 0 && box.x + box.width <= 550).toBe(true);
  expect(await overflowX(page)).toBeLessThanOrEqual(0);

  await page.locator('[data-job-id]').first().click();
  await expect(page.getByTestId('job-detail')).toBeVisible();
  expect(await overflowX(page)).toBeLessThanOrEqual(0);
  // At this size the detail is a view of its own over the page; Esc returns to the page.
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('job-detail')).toHaveCount(0);

  await page.getByRole('tab', { name: 'Scale timeline' }).click();
  await expect(page.locator('figure.chart[data-lane="worker"] canvas')).toBeVisible();
  expect(await overflowX(page)).toBeLessThanOrEqual(0);

  await raise.click();
  await expect(nudge).toHaveCount(0);
});

test('keyboard: tabs follow the arrow keys, the cap follows arrows, Home and End', async ({ lanes: page }) => {
  const jobsTab = page.getByRole('tab', { name: 'Jobs' });
  await jobsTab.focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Scale timeline' })).toBeFocused();
  await expect(page.getByRole('tab', { name: 'Scale timeline' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tabpanel')).toContainText('Why the fleet changed');
  await page.keyboard.press('ArrowLeft');
  await expect(jobsTab).toHaveAttribute('aria-selected', 'true');

  const cap = laneRow(page, 'ml').getByRole('spinbutton', { name: 'Cap of ml' });
  await cap.focus();
  await page.keyboard.press('ArrowUp');
  await expect(cap).toHaveAttribute('aria-valuenow', '1');
  await page.keyboard.press('End');
  await expect(cap).toHaveAttribute('aria-valuenow', '7');
  await page.keyboard.press('Home');
  await expect(cap).toHaveAttribute('aria-valuenow', '0');
  await expect(laneRow(page, 'ml').getByTestId('mood')).toHaveText('Off');
});
