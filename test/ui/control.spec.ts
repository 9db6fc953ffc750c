// Control over many jobs at once, from the window, against a real engine: pause all (for an hour,
// a span typed, until tomorrow morning, or until resumed) with a banner that says why the machine is quiet and caps left alone; a nudge
// that can be told "not now" or snoozed; cancel or retry ticked jobs or a whole filter, and retry
// every failed job in one click; add a job and a lane from forms, and remove a lane that still
// holds jobs.
import { test, expect, laneRow } from './fixtures.js';
import { dismissHelp } from './scene.js';

test('Pause all for an hour: the banner says why nothing runs and until when, the caps stay, Resume lets work go', async ({ lanes: page, daemon }) => {
  await dismissHelp(page);
  await page.getByRole('button', { name: 'Pause all ▾' }).click();
  await page.getByRole('menuitem', { name: 'For 1 hour' }).click();
  const banner = page.getByTestId('paused');
  await expect(banner).toContainText(/All work is paused until \d/);
  await expect(banner).toContainText('The caps are unchanged');
  const status = await daemon.api('status', {});
  expect(status.paused?.until).toBeGreaterThan(Date.now() + 55 * 60_000);
  // Queued meanwhile, it waits; the lane says why, and its cap is what it was.
  const id = (await daemon.cli('add', '--', 'echo', 'after the pause')).stdout.trim();
  const worker = laneRow(page, 'worker');
  await expect(worker.getByTestId('waiting')).toHaveText('1');
  await expect(worker.getByTestId('lane-reason')).toContainText('all work paused until');
  await expect(worker.getByRole('spinbutton', { name: 'Cap of worker' })).toHaveAttribute('aria-valuenow', '1');
  await expect(page.getByRole('button', { name: 'Pause all ▾' })).toHaveCount(0);

  await banner.getByRole('button', { name: 'Resume now' }).click();
  await expect(banner).toHaveCount(0);
  await expect(page.locator(`[data-job-id="${id}"] .badge`)).toHaveText('Succeeded', { timeout: 15_000 });
  expect((await daemon.api('status', {})).paused).toBeNull();
});

test('Pause all for a span typed, or until tomorrow morning: a span that is none is refused in place and nothing pauses', async ({ lanes: page, daemon }) => {
  await dismissHelp(page);
  const pauseAll = page.getByRole('button', { name: 'Pause all ▾' });
  await pauseAll.click();
  await expect(page.getByRole('menuitem')).toHaveText(['For 15 minutes', 'For 1 hour', 'For 4 hours', 'Until tomorrow, 08:00', 'Until I resume']);
  const typed = page.getByRole('textbox', { name: 'For' });
  await typed.fill('soon');
  await page.getByRole('button', { name: 'Pause', exact: true }).click();
  await expect(page.locator('.pause-typed .field-error')).toHaveText('a pause is a span like 30m, 2h or 1h30m, not "soon"');
  expect((await daemon.api('status', {})).paused).toBeNull();
  await typed.fill('2h30m');
  const asked = Date.now();
  await typed.press('Enter');
  await expect(page.getByTestId('paused')).toBeVisible();
  const until = (await daemon.api('status', {})).paused?.until ?? 0;
  expect(until).toBeGreaterThanOrEqual(asked + 2.5 * 3_600_000 - 1_000);
  expect(until).toBeLessThan(Date.now() + 2.5 * 3_600_000 + 1_000);
  await page.getByTestId('paused').getByRole('button', { name: 'Resume now' }).click();
  await expect(page.getByTestId('paused')).toHaveCount(0);

  await pauseAll.click();
  await page.getByRole('menuitem', { name: 'Until tomorrow, 08:00' }).click();
  await expect(page.getByTestId('paused')).toContainText(/until \d{4}-\d\d-\d\d 08:00:00/);
  const d = new Date();
  const morning = new Date(d.getFullYear(), d.getMonth(), d.getDate() + 1, 8).getTime();
  expect(Math.abs(((await daemon.api('status', {})).paused?.until ?? 0) - morning)).toBeLessThan(2_000);
});

test('one lane paused for 15 minutes holds that lane only, and its row says until when; Resume lets it go', async ({ lanes: page, daemon }) => {
  await dismissHelp(page);
  await daemon.cli('lane', 'add', 'photos', '--cap', '1');
  // Its ❚❚ shows on hover (or keyboard focus), as ✕ does.
  await laneRow(page, 'photos').hover();
  await page.getByRole('button', { name: 'Pause photos' }).click();
  const asked = Date.now();
  await page.getByRole('menu', { name: 'Pause photos' }).getByRole('menuitem', { name: 'For 15 minutes' }).click();
  const photos = laneRow(page, 'photos');
  await expect(photos.getByTestId('lane-reason')).toHaveText(/^paused until \d\d:\d\d:\d\d$/);
  const status = await daemon.api('status', {});
  expect(status.paused).toBeNull();
  const until = status.lanes.find((l) => l.name === 'photos')?.paused?.until ?? 0;
  expect(until).toBeGreaterThanOrEqual(asked + 15 * 60_000 - 1_000);
  expect(until).toBeLessThan(Date.now() + 15 * 60_000 + 1_000);
  // The other lane runs on; the paused one holds what it is given.
  const held = (await daemon.cli('add', '--lane', 'photos', '--', 'echo', 'held')).stdout.trim();
  const runs = (await daemon.cli('add', '--', 'echo', 'runs')).stdout.trim();
  await expect(page.locator(`[data-job-id="${runs}"] .badge`)).toHaveText('Succeeded', { timeout: 15_000 });
  await expect(page.locator(`[data-job-id="${held}"] .badge`)).toHaveText('Queued');
  await expect(page.getByTestId('paused')).toHaveCount(0);

  await photos.getByRole('button', { name: 'Resume photos' }).click();
  await expect(page.locator(`[data-job-id="${held}"] .badge`)).toHaveText('Succeeded', { timeout: 15_000 });
  await expect(photos.getByTestId('lane-reason')).toHaveCount(0);
});

test('Pause all until I resume: the banner has no end time, and Resume in the header ends it', async ({ lanes: page, daemon }) => {
  await page.getByRole('button', { name: 'Pause all ▾' }).click();
  await page.getByRole('menuitem', { name: 'Until I resume' }).click();
  await expect(page.getByTestId('paused')).toContainText('All work is paused until you resume it');
  expect((await daemon.api('status', {})).paused?.until).toBeNull();
  // A pause from elsewhere (the tray, the CLI) and its end show the same way.
  await daemon.cli('resume');
  await expect(page.getByTestId('paused')).toHaveCount(0);
  await daemon.cli('pause');
  await expect(page.getByTestId('paused')).toBeVisible();
  await page.getByRole('banner').getByRole('button', { name: 'Resume' }).click();
  await expect(page.getByTestId('paused')).toHaveCount(0);
});

test('the nudge says what a higher cap buys, and "Not now" and "Snooze for a day" quiet it', async ({ lanes: page, daemon }) => {
  await daemon.api('addLane', { name: 'thumbs', class: 'cpu', cap: 1 });
  await daemon.api('addJobs', { jobs: Array.from({ length: 300 }, () => ({ argv: ['sleep', '0.2'] })) });
  await daemon.api('addJobs', { jobs: Array.from({ length: 300 }, () => ({ lane: 'thumbs', argv: ['sleep', '0.2'] })) });
  const worker = laneRow(page, 'worker');
  // Once jobs finish there is a pace: the nudge says how long at this cap and at the one it suggests.
  await expect(worker.getByTestId('nudge')).toContainText(/about \d+ (s|min) at 1 worker, about \d+ (s|min) at \d/, { timeout: 20_000 });
  await worker.getByRole('button', { name: 'Not now' }).click();
  await expect(worker.getByTestId('nudge')).toHaveCount(0);
  // Quieted, it says it rests, until when and why.
  await expect(worker.getByTestId('nudge-rest')).toHaveText(/^Nudge resting until (\d{4}-\d\d-\d\d )?\d\d:\d\d — you said not now; back sooner if [\d,]+ wait\.$/);
  expect((await daemon.api('status', {})).lanes.find((l) => l.name === 'worker')?.nudgeQuietUntil).not.toBeNull();

  const thumbs = laneRow(page, 'thumbs');
  await thumbs.getByRole('button', { name: 'Snooze for a day' }).click();
  await expect(thumbs.getByTestId('nudge')).toHaveCount(0);
  await expect(thumbs.getByTestId('nudge-rest')).toContainText('you snoozed it');
  const quiet = (await daemon.api('status', {})).lanes.find((l) => l.name === 'thumbs')?.nudgeQuietUntil ?? 0;
  // A day, as the tray's snooze.
  expect(quiet).toBeGreaterThan(Date.now() + 23 * 3_600_000);
  // The lanes keep working; nothing else changed.
  await expect(worker.getByRole('spinbutton', { name: 'Cap of worker' })).toHaveAttribute('aria-valuenow', '1');
});

test('tick jobs to cancel or retry them together; a filter cancels all it shows; Retry all failed is one click', async ({ lanes: page, daemon }) => {
  await daemon.cli('lane', 'add', 'later', '--cap', '0');
  const { ids } = await daemon.api('addJobs', { jobs: Array.from({ length: 6 }, (_, i) => ({ lane: 'later', argv: ['echo', `item ${i}`] })) });
  await dismissHelp(page);
  await expect(page.locator('[data-job-id]')).toHaveCount(6);

  // Ticked: two of them.
  await page.getByRole('checkbox', { name: `Select job ${ids[0]}` }).check();
  await page.getByRole('checkbox', { name: `Select job ${ids[1]}` }).check();
  const bar = page.getByTestId('bulk-bar');
  await expect(bar).toContainText('2 jobs selected');
  await bar.getByRole('button', { name: 'Cancel 2' }).click();
  await bar.getByRole('button', { name: 'Yes, cancel 2 jobs' }).click();
  await expect(page.getByTestId('notice')).toHaveText(/Cancelled 2 jobs\./);
  await expect(page.locator(`[data-job-id="${ids[0]}"] .badge`)).toHaveText('Cancelled');
  await expect(page.locator(`[data-job-id="${ids[1]}"] .badge`)).toHaveText('Cancelled');
  await expect(page.locator(`[data-job-id="${ids[2]}"] .badge`)).toHaveText('Queued');

  // Retry those two by ticking again.
  await page.getByRole('checkbox', { name: `Select job ${ids[0]}` }).check();
  await page.getByRole('checkbox', { name: `Select job ${ids[1]}` }).check();
  await bar.getByRole('button', { name: 'Retry 2' }).click();
  await expect(page.locator(`[data-job-id="${ids[0]}"] .badge`)).toHaveText('Queued');
  await expect(bar).toHaveCount(0);

  // A filter: every queued job of the lane, confirmed once.
  await page.getByLabel('Lane', { exact: true }).selectOption('later');
  await page.getByLabel('State', { exact: true }).selectOption('queued');
  await expect(bar).toContainText('6 queued jobs in later');
  await bar.getByRole('button', { name: 'Cancel all…' }).click();
  await bar.getByRole('button', { name: 'Yes, cancel all 6' }).click();
  // The rows stay where they were, now saying what happened to them; the count is the filter's.
  await expect(page.locator('[data-job-id] .badge', { hasText: 'Cancelled' })).toHaveCount(6);
  await expect(page.getByTestId('job-count')).toHaveText('0 jobs');
  await expect(bar).toHaveCount(0);
  expect((await daemon.api('status', {})).lanes.find((l) => l.name === 'later')?.cancelled).toBe(6);

  // Failed jobs, then "Retry all failed" from the toolbar.
  await page.getByLabel('State', { exact: true }).selectOption('');
  await page.getByLabel('Lane', { exact: true }).selectOption('');
  for (let i = 0; i < 3; i++) await daemon.cli('add', '--attempts', '1', '--', 'sh', '-c', 'exit 4');
  await expect(laneRow(page, 'worker').getByTestId('failed')).toHaveText('3', { timeout: 15_000 });
  const clicked = Date.now();
  await page.getByRole('button', { name: 'Retry all failed (3)' }).click();
  await expect(page.getByTestId('notice')).toHaveText(/Queued 3 jobs to run again\./);
  // They run again (and fail again): all three failed once more, after the click.
  await expect
    .poll(async () => (await daemon.api('listJobs', { lane: 'worker', state: 'failed' })).jobs.filter((j) => (j.startedAt ?? 0) >= clicked).length, { timeout: 20_000 })
    .toBe(3);
});

test('Clear succeeded… clears only the succeeded jobs it counted when it asked (the count stays put while read), failed ones only when shown, every lane\'s confirmed in place', async ({ lanes: page, daemon }) => {
  await daemon.cli('lane', 'add', 'done', '--cap', '1');
  const ids = [(await daemon.cli('add', '--lane', 'done', '--', 'echo', 'one')).stdout.trim(), (await daemon.cli('add', '--lane', 'done', '--', 'echo', 'two')).stdout.trim()];
  const broken = (await daemon.cli('add', '--lane', 'done', '--attempts', '1', '--', 'sh', '-c', 'exit 1')).stdout.trim();
  const other = (await daemon.cli('add', '--', 'echo', 'elsewhere')).stdout.trim();
  await daemon.cli('wait', ...ids, broken, other);
  await dismissHelp(page);
  const bar = page.getByTestId('bulk-bar');

  await page.getByLabel('Lane', { exact: true }).selectOption('done');
  await bar.getByRole('button', { name: 'Clear succeeded…' }).click();
  const sure = bar.getByRole('button', { name: /^Yes, clear/ });
  await expect(sure).toHaveText('Yes, clear 2 succeeded jobs in done');
  // A job that succeeds while the question is read moves neither the count nor what is cleared.
  const late = (await daemon.cli('add', '--lane', 'done', '--', 'echo', 'late')).stdout.trim();
  expect((await daemon.cli('wait', late)).code).toBe(0);
  await expect(page.locator(`[data-job-id="${late}"] .badge`)).toHaveText('Succeeded');
  await expect(sure).toHaveText('Yes, clear 2 succeeded jobs in done');
  await sure.click();
  await expect(page.getByTestId('notice')).toHaveText(/Cleared 2 succeeded jobs\./);
  await expect(page.locator('[data-job-id]')).toHaveCount(2);
  await expect(page.locator(`[data-job-id="${late}"]`)).toBeVisible();
  await expect(page.locator(`[data-job-id="${broken}"]`)).toBeVisible();

  // Failed jobs go only when the filter shows them, and the button says so.
  await page.getByLabel('State', { exact: true }).selectOption('failed');
  await bar.getByRole('button', { name: 'Clear failed…' }).click();
  await bar.getByRole('button', { name: 'Yes, clear 1 failed job in done' }).click();
  await expect(page.getByTestId('notice')).toHaveText(/Cleared 1 failed job\./);
  expect((await daemon.api('status', {})).lanes.find((l) => l.name === 'done')).toMatchObject({ succeeded: 1, failed: 0 });

  // Every lane: asked once more, and "Keep them" keeps them.
  await page.getByLabel('State', { exact: true }).selectOption('');
  await page.getByLabel('Lane', { exact: true }).selectOption('');
  await bar.getByRole('button', { name: 'Clear succeeded…' }).click();
  await bar.getByRole('button', { name: 'Keep them' }).click();
  await expect(page.locator(`[data-job-id="${other}"]`)).toBeVisible();
  await bar.getByRole('button', { name: 'Clear succeeded…' }).click();
  await bar.getByRole('button', { name: 'Yes, clear 2 succeeded jobs in all lanes' }).click();
  await expect(page.locator(`[data-job-id="${other}"]`)).toHaveCount(0);
  await expect(bar).toHaveCount(0);
  expect((await daemon.api('status', {})).lanes.find((l) => l.name === 'worker')?.succeeded).toBe(0);
});

test('add a job and a lane from the window; remove a lane that still holds jobs by cancelling them', async ({ lanes: page, daemon }) => {
  await dismissHelp(page);
  // The empty list offers the form as well as the command.
  await page.getByTestId('jobs-empty').getByRole('button', { name: 'Add a job…' }).click();
  const jobForm = page.getByTestId('add-job');
  await expect(jobForm).toBeVisible();
  await jobForm.getByLabel('Command line').fill('echo "from the window" && echo done >&2');
  await jobForm.getByRole('button', { name: 'Add job' }).click();
  await expect(jobForm).toHaveCount(0);
  const row = page.locator('[data-job-id]').first();
  await expect(row).toContainText('echo "from the window"');
  await expect(row.locator('.badge')).toHaveText('Succeeded', { timeout: 15_000 });
  await row.click();
  await expect(page.getByTestId('log-text')).toContainText('from the window');
  await page.keyboard.press('Escape');

  // A lane: refused names are the engine's words; a good one appears with its cap.
  await page.getByRole('button', { name: 'Add lane…' }).click();
  const laneForm = page.getByTestId('add-lane');
  await laneForm.getByLabel('Name').fill('render');
  await laneForm.getByLabel('Cap').fill('0');
  await laneForm.getByLabel('Worker command (optional)').fill('no-such-program-anywhere --serve');
  await laneForm.getByRole('button', { name: 'Add lane' }).click();
  await expect(laneForm.getByRole('alert')).toContainText('no-such-program-anywhere');
  await laneForm.getByLabel('Worker command (optional)').fill('');
  await laneForm.getByRole('button', { name: 'Add lane' }).click();
  await expect(laneForm).toHaveCount(0);
  const render = laneRow(page, 'render');
  await expect(render.getByRole('spinbutton', { name: 'Cap of render' })).toHaveAttribute('aria-valuenow', '0');

  // A job for it from the toolbar's form, which opens on the lane being looked at.
  await page.getByLabel('Lane', { exact: true }).selectOption('render');
  await page.getByRole('button', { name: 'Add job…' }).click();
  await expect(jobForm.getByLabel('Lane')).toHaveValue('render');
  await jobForm.getByLabel('Command line').fill('sleep 30');
  await jobForm.getByLabel('Command line').press('Enter');
  await expect(render.getByTestId('waiting')).toHaveText('1');

  // Removing it offers to cancel what it holds.
  await render.hover();
  await render.getByRole('button', { name: 'Remove lane render' }).click();
  const removeForm = page.getByTestId('remove-lane');
  await expect(removeForm).toContainText('render still holds 1 unfinished job');
  await removeForm.getByRole('button', { name: 'Cancel 1 job and remove' }).click();
  await expect(render).toHaveCount(0);
  await expect(page.getByLabel('Lane', { exact: true })).toHaveValue('');
  expect((await daemon.api('status', {})).lanes.map((l) => l.name)).not.toContain('render');
});
