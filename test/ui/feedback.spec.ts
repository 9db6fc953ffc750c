// The window answers at once: a running job's "Took" ticks (one clock for the whole list, stopped
// when nothing runs), Cancel says "Cancelling…" before the engine has stopped the job and shows the
// engine's words if it refuses, and a failed job opens on its error.
import { test, expect } from './fixtures.js';

/** Counts the page's live intervals by period, so the test can see how many clocks tick. */
const COUNT_INTERVALS = `(() => {
  const live = new Map();
  const set = window.setInterval.bind(window);
  const clear = window.clearInterval.bind(window);
  window.setInterval = (fn, ms, ...rest) => { const id = set(fn, ms, ...rest); live.set(id, ms); return id; };
  window.clearInterval = (id) => { live.delete(id); clear(id); };
  window.__intervals = (ms) => [...live.values()].filter((m) => m === ms).length;
})();`;

function intervals(page: import('@playwright/test').Page, ms: number): Promise<number> {
  return page.evaluate((period) => (globalThis as unknown as { __intervals(ms: number): number }).__intervals(period), ms);
}

test('"Took" ticks for running jobs from one clock, which stops when none runs', async ({ lanes: page, daemon }) => {
  await page.addInitScript({ content: COUNT_INTERVALS });
  await page.reload();
  await daemon.cli('cap', 'worker', '4');
  const { ids } = await daemon.api('addJobs', { jobs: Array.from({ length: 4 }, () => ({ argv: ['sleep', '8'] })) });
  const took = page.locator(`[data-job-id="${ids[0]}"] [data-testid="took"]`);
  await expect(page.locator('[data-job-id] .badge', { hasText: 'Running' })).toHaveCount(4);
  await expect(took).toHaveText(/^\d+ s$/);
  const first = await took.textContent();
  await expect(took).not.toHaveText(first!);
  await expect(took).toHaveText(/^\d+ s$/);
  await expect(page.getByText('running', { exact: true })).toHaveCount(0);
  // Four rows tick, one clock does it.
  expect(await intervals(page, 1_000)).toBe(1);
  // The detail reads the same clock: its "running for" and the row's "Took" agree at every tick.
  await page.locator(`[data-job-id="${ids[0]}"]`).click();
  const ranFor = page.getByTestId('job-detail').getByTestId('ran-for');
  await expect(ranFor).toContainText('running for');
  const [row, detail] = await page.evaluate((id) => {
    const g = globalThis as unknown as { document: { querySelector(s: string): { textContent: string | null } | null } };
    return [g.document.querySelector(`[data-job-id="${id}"] [data-testid="took"]`)?.textContent, g.document.querySelector('[data-testid="ran-for"]')?.textContent];
  }, ids[0]);
  expect(detail).toContain(`running for ${row}`);
  await page.keyboard.press('Escape');

  // Finished, each shows what it took, and nothing ticks any more.
  await expect(page.locator('[data-job-id] .badge', { hasText: 'Succeeded' })).toHaveCount(4, { timeout: 20_000 });
  await expect(took).toHaveText(/^\d(\.\d)? s$/);
  await expect.poll(() => intervals(page, 1_000)).toBe(0);
});

test('Cancel says "Cancelling…" at once, until the job has stopped', async ({ lanes: page, daemon }) => {
  const id = (await daemon.cli('add', '--', 'sleep', '30')).stdout.trim();
  const row = page.locator(`[data-job-id="${id}"]`);
  await row.click();
  const detail = page.getByTestId('job-detail');
  await expect(detail.getByTestId('job-state')).toHaveText('Running');
  // Hold the request on its way, so "at once" means before the engine has even heard it.
  let release = () => {};
  const held = new Promise<void>((done) => (release = done));
  await page.route('**/api/jobs/*/cancel', async (route) => {
    await held;
    await route.continue();
  });
  await detail.getByRole('button', { name: 'Cancel' }).click();
  await expect(detail.getByRole('button', { name: 'Cancelling…' })).toBeDisabled();
  await expect(detail.getByTestId('job-state')).toHaveText('Cancelling…');
  await expect(row.locator('.badge')).toHaveText('Cancelling…');
  release();
  await expect(detail.getByTestId('job-state')).toHaveText('Cancelled');
  await expect(row.locator('.badge')).toHaveText('Cancelled');
  await expect(page.getByText('Cancelling…')).toHaveCount(0);
  expect((await daemon.api('job', { id: Number(id) })).state).toBe('cancelled');
});

test('a cancel the engine refuses goes back and says why in its words', async ({ lanes: page, daemon }) => {
  await daemon.cli('lane', 'add', 'later', '--cap', '0');
  const id = (await daemon.cli('add', '--lane', 'later', '--', 'echo', 'done')).stdout.trim();
  await page.locator(`[data-job-id="${id}"]`).click();
  const detail = page.getByTestId('job-detail');
  await expect(detail.getByTestId('job-state')).toHaveText('Queued');
  // The job finishes while the click is on its way: the engine then refuses to cancel it.
  let release = () => {};
  const held = new Promise<void>((done) => (release = done));
  await page.route('**/api/jobs/*/cancel', async (route) => {
    await held;
    await route.continue();
  });
  await detail.getByRole('button', { name: 'Cancel' }).click();
  await expect(detail.getByTestId('job-state')).toHaveText('Cancelling…');
  await daemon.cli('cap', 'later', '1');
  expect((await daemon.cli('wait', id)).code).toBe(0);
  release();
  await expect(detail.getByRole('alert')).toHaveText(`Not cancelled: job ${id} has already succeeded`);
  await expect(detail.getByTestId('job-state')).toHaveText('Succeeded');
  await expect(page.getByText('Cancelling…')).toHaveCount(0);
});

test('a failed job opens on stderr with its error on top; stdout is one click away, and "all" is both streams with a line between attempts', async ({ lanes: page, daemon }) => {
  const id = (await daemon.cli('add', '--attempts', '2', '--', 'sh', '-c', 'echo "step 1 of 2"; echo "disk full: /var/out" >&2; exit 3')).stdout.trim();
  const row = page.locator(`[data-job-id="${id}"]`);
  await expect(row.locator('.badge')).toHaveText('Failed', { timeout: 20_000 });
  await row.click();
  const detail = page.getByTestId('job-detail');
  await expect(detail.getByRole('radio', { name: 'stderr' })).toHaveAttribute('aria-checked', 'true');
  await expect(detail.getByTestId('log-text')).toContainText('disk full: /var/out');
  const outcome = detail.getByTestId('job-outcome');
  await expect(outcome).toContainText('Failed after 2 attempts');
  await expect(outcome).toContainText('exited with code 3');
  // The outcome comes before the command and the log.
  const [outcomeBox, logBox] = [await outcome.boundingBox(), await detail.getByTestId('log-text').boundingBox()];
  expect(outcomeBox!.y).toBeLessThan(logBox!.y);
  await expect(detail.getByRole('region', { name: 'Attempts that did not succeed' })).toContainText('#1 failed');

  await detail.getByRole('radio', { name: 'stdout' }).click();
  await expect(detail.getByTestId('log-text')).toContainText('step 1 of 2');
  // "all" is both streams as they came, with a line between attempts.
  await detail.getByRole('radio', { name: 'all' }).click();
  const log = detail.getByTestId('log-text');
  await expect(log.getByTestId('attempt-line')).toHaveText(/^── attempt 2 · \d\d:\d\d:\d\d ──/);
  await expect(log).toContainText(/step 1 of 2\s+disk full: \/var\/out\s+── attempt 2 · [\d:]+ ──\s+step 1 of 2\s+disk full: \/var\/out/);
  await page.keyboard.press('Escape');

  // A job that succeeds opens on everything it said.
  const ok = (await daemon.cli('add', '--', 'sh', '-c', 'echo out; echo note >&2')).stdout.trim();
  await expect(page.locator(`[data-job-id="${ok}"] .badge`)).toHaveText('Succeeded', { timeout: 15_000 });
  await page.locator(`[data-job-id="${ok}"]`).click();
  await expect(detail.getByRole('radio', { name: 'all' })).toHaveAttribute('aria-checked', 'true');
  await expect(detail.getByTestId('log-text')).toContainText(/out\s+note/);
});

test('a job that fails while open turns to its stderr, unless the person picked a stream', async ({ lanes: page, daemon }) => {
  const add = async () => (await daemon.cli('add', '--attempts', '1', '--', 'sh', '-c', 'echo working; sleep 2; echo "gave up: no input" >&2; exit 1')).stdout.trim();
  const id = await add();
  await page.locator(`[data-job-id="${id}"]`).click();
  const detail = page.getByTestId('job-detail');
  await expect(detail.getByTestId('log-text')).toContainText('working');
  // Running, it shows both streams together.
  await expect(detail.getByRole('radio', { name: 'all' })).toHaveAttribute('aria-checked', 'true');
  await expect(detail.getByTestId('job-state')).toHaveText('Failed', { timeout: 20_000 });
  await expect(detail.getByRole('radio', { name: 'stderr' })).toHaveAttribute('aria-checked', 'true');
  await expect(detail.getByTestId('log-text')).toContainText('gave up: no input');

  const picked = await add();
  await page.locator(`[data-job-id="${picked}"]`).click();
  await detail.getByRole('radio', { name: 'stdout' }).click();
  await expect(detail.getByTestId('log-text')).toContainText('working');
  await expect(detail.getByTestId('job-state')).toHaveText('Failed', { timeout: 20_000 });
  await expect(detail.getByRole('radio', { name: 'stdout' })).toHaveAttribute('aria-checked', 'true');
  await expect(detail.getByTestId('log-text')).toContainText('working');
});
