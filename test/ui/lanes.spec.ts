// The lanes as a person sees them, against a real engine: jobs arrive, workers start, the nudge
// appears with the right numbers and goes when acted on, caps drain without killing work, idle
// lanes give their workers back, and a refused cap says so and stays true.
import { test, expect, laneRow } from './fixtures.js';

// How soon the worker starts is a benchmark figure (enqueue → first instruction, docs/benchmarks.md).
test('jobs added with the CLI appear, and a worker starts for them', async ({ lanes: page, daemon }) => {
  await expect(page.getByTestId('jobs-empty')).toContainText('lanes add -- your-command');
  const added = await daemon.cli('add', '--', 'sleep', '3');
  expect(added.code, added.stderr).toBe(0);
  const id = added.stdout.trim();

  const worker = laneRow(page, 'worker');
  await expect(worker.locator('.pips .pip-busy')).toHaveCount(1);
  await expect(page.locator(`[data-job-id="${id}"]`)).toContainText('sleep 3');
  await expect(page.locator(`[data-job-id="${id}"]`)).toContainText('Running');
  await expect(worker.getByTestId('mood')).toHaveText('Working');
  await expect(page.getByRole('meter')).toHaveAttribute('aria-valuenow', '1');
});

test('at the cap with a backlog the nudge names the numbers; "Raise" grows the lane and the nudge goes', async ({ lanes: page, daemon }) => {
  for (let i = 0; i < 5; i++) await daemon.cli('add', '--', 'sleep', '20');
  const worker = laneRow(page, 'worker');
  const nudge = worker.getByTestId('nudge');
  await expect(nudge).toContainText('4 waiting and all 1 worker busy');
  await expect(nudge).toContainText('up to 7');
  // The engine's suggestion covers the backlog within the ceiling: 1 busy + 4 waiting.
  const status = await daemon.api('status', {});
  expect(status.lanes.find((l) => l.name === 'worker')?.nudge?.suggestedCap).toBe(5);
  await expect(worker.getByTestId('mood')).toHaveText('Saturated');

  await nudge.getByRole('button', { name: 'Raise to 5' }).click();
  await expect(worker.getByRole('spinbutton', { name: 'Cap of worker' })).toHaveValue('5');
  await expect(nudge).toHaveCount(0);
  await expect(worker.locator('.pips .pip-busy')).toHaveCount(5);
  await expect(worker.getByTestId('waiting')).toHaveText('0');
  expect((await daemon.api('status', {})).lanes.find((l) => l.name === 'worker')?.cap).toBe(5);
});

test('lowering a cap drains: running jobs finish, none is killed', async ({ lanes: page, daemon }) => {
  await daemon.cli('cap', 'worker', '3');
  // Three run at once and two wait, so the lane still has work once it has drained to one.
  // One request, so all five are queued before the first finishes.
  const { ids } = await daemon.api('addJobs', { jobs: Array.from({ length: 5 }, () => ({ argv: ['sleep', '3'] })) });
  const worker = laneRow(page, 'worker');
  await expect(worker.locator('.pips .pip-busy')).toHaveCount(3);

  const cap = worker.getByRole('spinbutton', { name: 'Cap of worker' });
  await cap.focus();
  await cap.press('ArrowDown');
  await cap.press('ArrowDown');
  await expect(cap).toHaveValue('1');
  // Two workers are past the cap: they finish their job, then stop; one carries on.
  await expect(worker.locator('.pips .pip-draining')).toHaveCount(2);
  await expect(worker.locator('.pips .pip-draining')).toHaveCount(0, { timeout: 15_000 });
  await expect(worker.locator('.pips .pip-busy, .pips .pip-idle')).toHaveCount(1);

  await expect.poll(async () => (await daemon.api('listJobs', { state: 'succeeded' })).total, { timeout: 30_000 }).toBe(5);
  const done = await daemon.api('listJobs', { state: 'succeeded' });
  expect(done.jobs.map((j) => [j.id, j.attempts]).sort()).toEqual(ids.map((id) => [id, 1]).sort());
  expect((await daemon.api('listJobs', { state: 'failed' })).total).toBe(0);
  expect((await daemon.api('listJobs', { state: 'cancelled' })).total).toBe(0);
});

test('an idle lane gives its workers back, down to zero', async ({ lanes: page, daemon }) => {
  await daemon.cli('cap', 'worker', '2');
  await daemon.api('addJobs', { jobs: [{ argv: ['sleep', '2'] }, { argv: ['sleep', '2'] }] });
  const worker = laneRow(page, 'worker');
  await expect(worker.locator('.pips .pip-busy, .pips .pip-idle')).not.toHaveCount(0);
  await expect(worker.locator('.pips .pip-busy, .pips .pip-idle, .pips .pip-draining')).toHaveCount(0, { timeout: 15_000 });
  await expect(worker.getByTestId('mood')).toHaveText('Idle');
  await expect(page.getByRole('meter')).toHaveAttribute('aria-valuenow', '0');
});

test('a refused cap shows the engine’s message and the cap shown stays true', async ({ lanes: page, daemon }) => {
  const worker = laneRow(page, 'worker');
  const cap = worker.getByRole('spinbutton', { name: 'Cap of worker' });
  // A cap above the machine's ceiling is kept (the machine decides how many run); one past the
  // highest cap is refused.
  await cap.fill('300');
  await cap.press('Enter');
  const alert = worker.getByRole('alert');
  await expect(alert).toContainText('The cap stays at 1');
  await expect(alert).toContainText('at most 256');
  await expect(cap).toHaveValue('1');
  expect((await daemon.api('status', {})).lanes.find((l) => l.name === 'worker')?.cap).toBe(1);

  // The stepper itself never offers more than the ceiling.
  await cap.press('End');
  await expect(cap).toHaveValue('7');
  await expect(alert).toHaveCount(0);
  await expect(worker.getByRole('button', { name: 'Raise the cap of worker' })).toBeDisabled();
  await expect.poll(async () => (await daemon.api('status', {})).lanes.find((l) => l.name === 'worker')?.cap).toBe(7);
});
