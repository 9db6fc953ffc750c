// Numbers a person can trust and jobs they can find, against a real engine: each lane's outlook
// (the oldest waiting job's wait, then "N left, about T" once there is a pace), why the built-in ml
// lane is off, a persistent worker's load apart from its run; the list oldest first and searched
// by text; the chart's cap line and a ledger that
// says a cap went up or down.
import { test, expect, laneRow } from './fixtures.js';
import { dismissHelp } from './scene.js';

test('a backlog shows its oldest wait at once, and "N left, about T" once there is a pace to go by', async ({ lanes: page, daemon }) => {
  await daemon.api('addLane', { name: 'thumbs', class: 'cpu', cap: 2 });
  await daemon.api('addJobs', { jobs: Array.from({ length: 120 }, () => ({ lane: 'thumbs', argv: ['sleep', '0.2'] })) });
  const thumbs = laneRow(page, 'thumbs');
  // The wait counts the jobs still waiting: it grows while they wait.
  await expect(thumbs.getByTestId('wait')).toHaveText(/^\d+(\.\d)? s$/);
  await expect(thumbs.getByTestId('lane-eta')).toHaveText(/^\d+ left, about \d+ (s|min)$/, { timeout: 20_000 });
  // Done: nothing left, no promise, and the wait says nothing waits now.
  await expect(thumbs.getByTestId('waiting')).toHaveText('0', { timeout: 60_000 });
  await expect(thumbs.getByTestId('lane-eta')).toHaveCount(0, { timeout: 10_000 });
  await expect(thumbs.getByTestId('wait')).toHaveAttribute('title', /Nothing waits now/);
});

test('the built-in ml lane says why it is off', async ({ lanes: page }) => {
  const ml = laneRow(page, 'ml');
  await expect(ml.getByTestId('mood')).toHaveText('Off');
  await expect(ml.getByTestId('lane-reason')).toHaveText('ml lanes start off — raise the cap to run jobs');
});

test('a persistent worker’s load shows apart from its first job’s run', async ({ lanes: page, daemon }) => {
  // Loads for 1.5 s, says it is ready, then answers each job at once.
  const worker = `setTimeout(() => {
    console.log(JSON.stringify({ ready: true }));
    require('readline').createInterface({ input: process.stdin }).on('line', (l) => {
      const j = JSON.parse(l);
      console.log(JSON.stringify({ id: j.id, ok: true, result: { got: j.payload } }));
    });
  }, 1500);`;
  await daemon.api('addLane', { name: 'model', class: 'ml', cap: 1, workerCommand: [process.execPath, '-e', worker] });
  const { id } = await daemon.api('addJob', { lane: 'model', payload: { n: 1 } });
  await page.locator(`[data-job-id="${id}"]`).click();
  const detail = page.getByTestId('job-detail');
  await expect(detail.getByTestId('job-state')).toHaveText('Succeeded', { timeout: 20_000 });
  // The words, and a load of at least the 1.5 s the worker took: how much more depends on the machine's load.
  const ranFor = detail.getByTestId('ran-for');
  await expect(ranFor).toHaveText(/^\s*(·\s*)?ran [\d.]+ (ms|s), after [\d.]+ s loading its worker$/);
  expect(Number(/after ([\d.]+) s/.exec((await ranFor.textContent()) ?? '')?.[1])).toBeGreaterThanOrEqual(1.5);
});

test('oldest first puts the running job and the longest waiting on top; newest first the latest', async ({ lanes: page, daemon }) => {
  await dismissHelp(page);
  const { ids } = await daemon.api('addJobs', { jobs: Array.from({ length: 30 }, (_, i) => ({ argv: ['sleep', i === 0 ? '30' : '1'] })) });
  const first = page.locator('[data-job-id]').first();
  await expect(first).toHaveAttribute('data-job-id', String(ids.at(-1)));
  await page.getByRole('radio', { name: 'Oldest' }).click();
  await expect(page.getByRole('grid')).toHaveAttribute('aria-label', 'Jobs, oldest first');
  await expect(first).toHaveAttribute('data-job-id', String(ids[0]));
  await expect(first.locator('.badge')).toHaveText('Running');
  await expect(page.locator('[data-job-id]').nth(1)).toHaveAttribute('data-job-id', String(ids[1]));
  // New jobs join at the bottom, where their turn is.
  const { id } = await daemon.api('addJob', { argv: ['echo', 'the newest'] });
  await page.getByRole('grid').press('End');
  await expect(page.locator('[data-job-id]').last()).toHaveAttribute('data-job-id', String(id));
  await page.getByRole('radio', { name: 'Newest' }).click();
  await expect(first).toHaveAttribute('data-job-id', String(id));
});

test('the search box finds jobs by their command, as typed, and new ones that match', async ({ lanes: page, daemon }) => {
  await dismissHelp(page);
  await daemon.cli('lane', 'add', 'later', '--cap', '0');
  for (const name of ['IMG_1040.jpg', 'IMG_1041.HEIC', 'notes.md', 'IMG_1042.jpg']) await daemon.cli('add', '--lane', 'later', '--', 'make-thumb', name);
  await expect(page.locator('[data-job-id]')).toHaveCount(4);
  const search = page.getByRole('searchbox', { name: 'Search commands' });
  await search.fill('img_10');
  await expect(page.locator('[data-job-id]')).toHaveCount(3);
  await expect(page.getByTestId('job-count')).toHaveText('3 found');
  await search.fill('heic');
  await expect(page.locator('[data-job-id]')).toHaveCount(1);
  await expect(page.locator('[data-job-id]')).toContainText('IMG_1041.HEIC');
  await daemon.cli('add', '--lane', 'later', '--', 'make-thumb', 'IMG_2000.heic');
  await daemon.cli('add', '--lane', 'later', '--', 'make-thumb', 'IMG_2001.jpg');
  await expect(page.locator('[data-job-id]')).toHaveCount(2);
  await search.fill('nothing like it');
  await expect(page.getByTestId('jobs-empty')).toContainText('No jobs match this filter');
  await page.getByTestId('jobs-empty').getByRole('button', { name: 'Show all jobs' }).click();
  await expect(search).toHaveValue('');
  await expect(page.locator('[data-job-id]')).toHaveCount(6);
});

test('the chart draws the cap, and the ledger says the cap was raised, then lowered', async ({ lanes: page, daemon }) => {
  await daemon.api('addJobs', { jobs: Array.from({ length: 6 }, () => ({ argv: ['sleep', '3'] })) });
  const worker = laneRow(page, 'worker');
  await expect(worker.locator('.pips .pip-busy')).toHaveCount(1);
  await worker.getByRole('button', { name: 'Raise the cap of worker' }).click();
  await expect(worker.locator('.pips .pip-busy')).toHaveCount(2);
  await page.getByRole('tab', { name: 'Scale timeline' }).click();
  const chart = page.locator('figure.chart[data-lane="worker"]');
  await expect(chart.locator('.key-cap')).toBeVisible();
  await expect(chart.getByRole('img')).toHaveAttribute('aria-label', /of a cap of 2/);
  const ledger = page.getByTestId('ledger');
  await expect(ledger).toContainText('Cap raised');
  await expect(ledger).toContainText('Engine started');
  await worker.getByRole('button', { name: 'Lower the cap of worker' }).click();
  await expect(ledger).toContainText('Cap lowered');
  await expect(ledger.locator('li', { hasText: 'Cap lowered' }).first()).toContainText('cap lowered to 1');
});
