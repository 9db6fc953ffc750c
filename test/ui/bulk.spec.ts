// 100,000 queued jobs: the window stays true to them — it hears every job event of the flood,
// counts them and shows the newest on top, reopens with them waiting, scrolls through 5,000 rows
// paged in as they come into view, gives each filter its answer, and pages through with the
// keyboard. How fast each step is belongs to the window's benchmark (bulk-bench.spec.ts, which
// writes docs/benchmarks-window.md), not here: a busy machine makes this slower, never wrong.
import { test, expect } from './fixtures.js';
import { FILTERS, FLING_ROWS, addHeldLane, applyFilter, fling, pageThrough, queueAll } from './bulk-scene.js';

test.setTimeout(240_000);

test('100,000 queued jobs: the jobs view counts them, shows the newest, scrolls through them and filters them', async ({ lanes: page, daemon }) => {
  await addHeldLane(daemon);
  const lastId = await queueAll(daemon);
  await expect(page.getByTestId('job-count')).toHaveText('100,000 jobs', { timeout: 60_000 });
  // The list heard every job event: the newest job is on top without a reload.
  await expect(page.locator('[data-job-id]').first()).toHaveAttribute('data-job-id', String(lastId));

  // Opened afresh with them waiting.
  await page.reload();
  await expect(page.getByTestId('job-count')).toHaveText('100,000 jobs');
  await expect(page.locator('[data-job-id]').first()).toHaveAttribute('data-job-id', String(lastId));
  await expect(page.locator('li.lane[data-lane="bulk"] [data-testid="waiting"]')).toHaveText('100,000');

  // Flung: the pages came in as the end of what was loaded came into view, in order, none skipped.
  const flung = await fling(page);
  expect(flung.reached).toBeGreaterThanOrEqual(FLING_ROWS);
  const last = page.locator('[data-testid="job-list"] [data-job-id]').last();
  const rowIndex = Number(await last.getAttribute('aria-rowindex'));
  // Row 1 is the header, row 2 the newest job; the ids of one lane's batches follow one another.
  expect(Number(await last.getAttribute('data-job-id'))).toBe(lastId - (rowIndex - 2));
  // Only the rows near the screen are in the page, however far down the list is.
  expect(await page.locator('[data-job-id]').count()).toBeLessThan(200);

  for (const f of FILTERS) {
    expect(await applyFilter(page, f), `filter ${f.what}: the list never showed /${f.shows}/`).not.toBeNull();
    await expect(page.locator(f.select)).toHaveValue(f.value);
  }
  await expect(page.getByTestId('job-count')).toHaveText('100,000 jobs');

  await pageThrough(page);
  await expect(page.getByTestId('job-detail')).toBeVisible();
});
