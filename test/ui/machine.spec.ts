// The sizer sees the machine, and the window says so: on battery the header says Lanes is quiet and
// how many of the cores' workers it allows, with the machine's facts a click away; a lane that its
// memory holds back says so in its row, calmly; and a nudge, once the lane has a pace, says what a
// higher cap buys. Each against a real engine told what machine it runs on (LANES_POWER,
// LANES_MEMORY), waiting on what the window shows, never on the clock.
import { test, expect, laneRow } from './fixtures.js';
import { dismissHelp } from './scene.js';
import { shoot, shootIfAsked, SHOOTING } from './shoot.js';

test.describe('on battery, 7 cores', () => {
  test.use({ daemonEnv: { LANES_POWER: 'battery' } });

  test('the header says Lanes is quiet and allows 3 of 7 workers; the facts open from it; the cap stays the person’s', async ({ lanes: page, daemon }) => {
    await dismissHelp(page);
    const held = page.getByTestId('holding-back');
    await expect(held).toHaveText('Quiet: on battery — 3 of 7 workers');
    await expect(page.getByRole('meter')).toHaveAttribute('aria-valuemax', '3');
    await expect(page.locator('#machine-label')).toHaveText('0 in use');

    // A lane capped above what the battery allows runs 3, and its row says why, as a note.
    await daemon.api('addLane', { name: 'render', class: 'cpu', cap: 7 });
    await daemon.api('addJobs', { jobs: Array.from({ length: 12 }, () => ({ lane: 'render', argv: ['sleep', '30'] })) });
    const render = laneRow(page, 'render');
    await expect(render.locator('.pips .pip-busy')).toHaveCount(3);
    await expect(render.getByTestId('lane-limit').locator('.lane-line-text')).toHaveText('Held back by the machine: quiet: on battery — up to 3 workers for now');
    await expect(render.getByRole('alert')).toHaveCount(0);
    // The cap is bounded by the cores, not by the battery: it stays 7 and still offers up to 7.
    const cap = render.getByRole('spinbutton', { name: 'Cap of render' });
    await expect(cap).toHaveValue('7');
    await expect(cap).toHaveAttribute('aria-valuemax', '7');
    await expect(page.locator('#machine-label')).toHaveText('3 in use');
    await shootIfAsked(page, 'machine-battery');

    // The facts, from the header's words; nothing in them is a control.
    const facts = page.getByTestId('machine-facts');
    await expect(facts).toBeHidden();
    await page.getByRole('button', { name: /Quiet: on battery/ }).click();
    await expect(facts).toBeVisible();
    await expect(facts).toContainText('Workers nowat most 3 — quiet: on battery');
    await expect(facts).toContainText('Cores7 — 7 workers, all of them: nobody at the computer');
    await expect(facts).toContainText('Poweron battery');
    await expect(facts).toContainText('Someone at the computercannot tell here');
    await expect(facts.getByRole('button')).toHaveCount(0);
    await expect(facts).toBeInViewport({ ratio: 1 });
    await shootIfAsked(page, 'machine-facts');
    await page.keyboard.press('Escape');
    await expect(facts).toBeHidden();
  });
});

test.describe('300 MB for workers', () => {
  test.use({ daemonEnv: { LANES_MEMORY: '300M' } });

  test('an ml lane whose worker cannot fit says so in its row, and the header names it', async ({ lanes: page, daemon }) => {
    await dismissHelp(page);
    // Until one is measured an ml worker is presumed to need 1 GiB: none of the 3 its cap allows can start.
    await daemon.api('addLane', { name: 'embed', class: 'ml', cap: 3, workerCommand: [process.execPath, '-e', 'setInterval(() => {}, 1000)'] });
    await daemon.api('addJobs', { jobs: Array.from({ length: 5 }, (_, i) => ({ lane: 'embed', payload: { chunk: i } })) });
    const embed = laneRow(page, 'embed');
    await expect(embed.getByTestId('waiting')).toHaveText('5');
    const limit = embed.getByTestId('lane-limit');
    await expect(limit).toContainText('memory: one of these needs about 1.0 GB, 285 MB is free for workers');
    await expect(limit).toBeInViewport({ ratio: 1 });
    await expect(embed.locator('.pips .pip-busy, .pips .pip-idle')).toHaveCount(0);
    await expect(embed.getByRole('alert')).toHaveCount(0);
    await expect(page.getByTestId('holding-back')).toHaveText('Memory holds back embed');
    // The machine's ceiling is the cores'; memory binds lane by lane.
    await expect(page.getByRole('meter')).toHaveAttribute('aria-valuemax', '7');
    await shootIfAsked(page, 'machine-memory');
  });
});

test('a nudge says what a higher cap buys once the lane has a pace, and reads whole', async ({ lanes: page, daemon }) => {
  await dismissHelp(page);
  await daemon.api('addJobs', { jobs: Array.from({ length: 200 }, () => ({ argv: ['sleep', '0.5'] })) });
  const worker = laneRow(page, 'worker');
  await expect(worker.getByTestId('nudge')).toBeVisible();
  // The estimate comes with the first finished jobs: both durations, at the cap and at the suggestion.
  const estimate = worker.getByTestId('nudge-estimate');
  await expect(estimate).toHaveText(/^about \d+ (s|min|h) at 1 worker, about \d+ (s|min|h) at \d+$/, { timeout: 30_000 });
  const suggested = Number(/at (\d+)$/.exec((await estimate.textContent()) ?? '')?.[1]);
  await expect(worker.getByRole('button', { name: `Raise to ${suggested}` })).toBeVisible();
  await expect(worker.getByTestId('nudge')).toContainText('this machine allows up to 7');
  // Readable: on screen whole, inside its line, not cut off beside the buttons.
  await expect(estimate).toBeInViewport({ ratio: 1 });
  const line = await worker.getByTestId('nudge').locator('.lane-line-text').boundingBox();
  const box = await estimate.boundingBox();
  expect(box && line && box.x >= line.x && box.x + box.width <= line.x + line.width + 0.5).toBe(true);
  if (SHOOTING) {
    // The picture waits for the row's outlook too, so the two read from a pace of a few jobs.
    await expect(worker.getByTestId('lane-eta')).toBeVisible({ timeout: 30_000 });
    await shoot(page, 'nudge-estimate', worker);
  }
});
