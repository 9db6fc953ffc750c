// Where things land on a real screen, with six lanes and three nudges: the job list keeps a useful
// number of rows, and a job's detail opens where it can be seen whole — beside the list at 100 %,
// as a view of its own at 200 % zoom (half the CSS width and height) — and Esc or Close puts the
// keyboard back on the row it came from. "Whole" is measured: no ancestor and no viewport edge
// cuts it (visibility.ts).
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures.js';
import { dismissHelp, sixLanesThreeNudges } from './scene.js';
import { clippedBy, rowsOnScreen } from './visibility.js';

const ZOOMED = { width: 550, height: 380 };

async function openRow(page: Page, nth: number): Promise<string> {
  const row = page.locator('[data-job-id]').nth(nth);
  const id = (await row.getAttribute('data-job-id'))!;
  await row.click();
  await expect(page.getByTestId('job-detail').getByRole('heading', { name: `Job ${id}` })).toBeVisible();
  return id;
}

async function expectBackOnRow(page: Page, id: string): Promise<void> {
  await expect(page.getByTestId('job-detail')).toHaveCount(0);
  const list = page.getByTestId('job-list');
  await expect(list).toBeFocused();
  await expect(list).toHaveAttribute('aria-activedescendant', `job-row-${id}`);
}

test('at 100 %: every lane and nudge on screen, a screenful of jobs, and the detail whole beside them', async ({ lanes: page, daemon }) => {
  await dismissHelp(page);
  await sixLanesThreeNudges(page, daemon);
  for (const lane of await page.locator('li.lane').all()) expect(await clippedBy(lane)).toEqual([]);
  for (const raise of await page.getByTestId('nudge').getByRole('button').all()) expect(await clippedBy(raise)).toEqual([]);
  const list = page.getByTestId('job-list');
  expect(await rowsOnScreen(list)).toBeGreaterThanOrEqual(9);

  const id = await openRow(page, 2);
  const detail = page.getByTestId('job-detail');
  await expect(detail).toHaveJSProperty('tagName', 'ASIDE');
  expect(await clippedBy(detail)).toEqual([]);
  expect(await clippedBy(detail.getByRole('button', { name: 'Close' }))).toEqual([]);
  expect(await clippedBy(detail.getByTestId('log-text'))).toEqual([]);
  expect(await rowsOnScreen(list)).toBeGreaterThanOrEqual(9);

  await page.keyboard.press('Escape');
  await expectBackOnRow(page, id);
  // The keyboard carries on from that row.
  await page.keyboard.press('ArrowDown');
  await expect(detail.getByRole('heading', { level: 3 })).toHaveText(`Job ${Number(id) - 1}`);
  await detail.getByRole('button', { name: 'Close' }).click();
  await expectBackOnRow(page, String(Number(id) - 1));

  // Zoomed in with a job open, the detail becomes a view of its own, still whole.
  await openRow(page, 0);
  await page.setViewportSize(ZOOMED);
  await expect(detail).toHaveJSProperty('tagName', 'DIALOG');
  await expect(detail).toBeInViewport({ ratio: 1 });
  expect(await clippedBy(detail)).toEqual([]);
});

test.describe('at 200 % zoom', () => {
  test.use({ viewport: ZOOMED });

  test('the jobs fill the screen when scrolled to, and the detail is a whole view that Esc closes', async ({ lanes: page, daemon }) => {
    await dismissHelp(page);
    await sixLanesThreeNudges(page, daemon);
    const work = page.locator('section.work');
    await work.evaluate((el: { scrollIntoView(options: object): void }) => el.scrollIntoView({ block: 'start' }));
    expect(await clippedBy(work)).toEqual([]);
    expect(await rowsOnScreen(page.getByTestId('job-list'))).toBeGreaterThanOrEqual(6);

    const id = await openRow(page, 1);
    const detail = page.getByTestId('job-detail');
    await expect(detail).toHaveJSProperty('tagName', 'DIALOG');
    await expect(detail).toBeInViewport({ ratio: 1 });
    expect(await clippedBy(detail)).toEqual([]);
    const close = detail.getByRole('button', { name: 'Close' });
    await expect(close).toBeFocused();
    expect(await clippedBy(close)).toEqual([]);
    // Everything in it can be reached: scrolled to, the log is whole too.
    const log = detail.getByTestId('log-text');
    await log.scrollIntoViewIfNeeded();
    expect(await clippedBy(log)).toEqual([]);

    await page.keyboard.press('Escape');
    await expectBackOnRow(page, id);
    await openRow(page, 3);
    const third = (await page.getByTestId('job-detail').getByRole('heading', { level: 3 }).textContent())!.replace('Job ', '');
    await page.getByTestId('job-detail').getByRole('button', { name: 'Close' }).click();
    await expectBackOnRow(page, third);
  });
});

test('the lanes fold to one line that still counts the nudges, and stay folded after a reload', async ({ lanes: page, daemon }) => {
  await dismissHelp(page);
  await sixLanesThreeNudges(page, daemon);
  const list = page.getByTestId('job-list');
  const unfolded = await rowsOnScreen(list);
  const fold = page.getByRole('button', { name: 'Lanes', exact: true });
  await expect(fold).toHaveAttribute('aria-expanded', 'true');
  await fold.click();
  await expect(fold).toHaveAttribute('aria-expanded', 'false');
  await expect(page.locator('li.lane')).toHaveCount(0);
  await expect(page.getByTestId('lanes-summary')).toHaveText('6 lanes · 3 workers busy · 21 jobs waiting · 3 lanes could run faster');
  await expect.poll(() => rowsOnScreen(list)).toBeGreaterThan(unfolded + 5);

  await page.reload();
  await expect(page.getByRole('status').filter({ hasText: 'Connected' })).toBeVisible();
  await expect(page.getByTestId('lanes-summary')).toBeVisible();
  await expect(page.locator('li.lane')).toHaveCount(0);
  await expect(page.getByTestId('help')).toHaveCount(0);
  await page.getByRole('button', { name: 'Lanes', exact: true }).click();
  await expect(page.locator('li.lane')).toHaveCount(6);
});
