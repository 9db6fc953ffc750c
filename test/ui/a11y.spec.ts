// An axe-core scan of the window's main views — the lanes with a nudge and a running job, the jobs
// list, a job open, the scale timeline, the help; a selected row of every kind of badge, the Run
// after field, a pause — in light and dark, failing on any serious or
// critical violation (WCAG 2 A and AA rules, contrast included). And every scrollable panel can
// be reached and scrolled by keyboard.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { test, expect, laneRow } from './fixtures.js';

async function scan(page: Page, view: string): Promise<string[]> {
  const found: string[] = [];
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    for (const v of result.violations) {
      if (v.impact !== 'serious' && v.impact !== 'critical') continue;
      found.push(`${view} (${colorScheme}): ${v.id} — ${v.help}: ${v.nodes.map((n) => `${n.target.join(" ")} ${(n.failureSummary ?? "").split("\n")[1] ?? ""}`).slice(0, 6).join(" | ")}`);
    }
  }
  return found;
}

test('the main views have no serious or critical accessibility violations, light and dark', async ({ lanes: page, daemon }) => {
  test.setTimeout(120_000);
  for (let i = 0; i < 4; i++) await daemon.cli('add', '--', 'sleep', '30');
  await daemon.cli('add', '--attempts', '1', '--', 'sh -c "echo broken >&2; exit 2"');
  await expect(laneRow(page, 'worker').getByTestId('nudge')).toBeVisible({ timeout: 20_000 });
  const found: string[] = [];
  found.push(...(await scan(page, 'lanes and jobs')));
  await page.locator('[data-job-id]').first().click();
  found.push(...(await scan(page, 'a job open')));
  await page.keyboard.press('Escape');
  await page.getByRole('tab', { name: 'Scale timeline' }).click();
  await expect(page.getByTestId('ledger')).toBeVisible();
  found.push(...(await scan(page, 'scale timeline')));
  await page.getByRole('button', { name: 'How Lanes works' }).click();
  found.push(...(await scan(page, 'help')));
  expect(found).toEqual([]);
});

// Every badge a row can wear, on a selected row too (the selection's tint under a badge's own is
// where contrast fell short before), the Run after field with its chips and suggestions, and a
// paused lane.
test('selected rows of every kind, the Run after field and a pause have no serious or critical violations, light and dark', async ({ lanes: page, daemon }) => {
  test.setTimeout(150_000);
  await daemon.cli('lane', 'add', 'quick', '--cap', '2');
  const long = (await daemon.cli('add', '--lane', 'quick', '--', 'sleep', '60')).stdout.trim();
  const broken = (await daemon.cli('add', '--lane', 'quick', '--attempts', '1', '--', 'sh -c "sleep 1; echo cannot open photo.jpg >&2; exit 2"')).stdout.trim();
  const blocked = (await daemon.cli('add', '--lane', 'quick', '--after', broken, '--', 'echo', 'never')).stdout.trim();
  const after = (await daemon.cli('add', '--lane', 'quick', '--after', long, '--', 'echo', 'later')).stdout.trim();
  const scheduled = (await daemon.cli('add', '--lane', 'quick', '--delay', '1h', '--', 'echo', 'tonight')).stdout.trim();
  const done = (await daemon.cli('add', '--lane', 'quick', '--', 'echo', 'done')).stdout.trim();
  await expect(page.locator(`[data-job-id="${blocked}"] .badge`)).toHaveText('Blocked', { timeout: 20_000 });
  await expect(page.locator(`[data-job-id="${done}"] .badge`)).toHaveText('Succeeded', { timeout: 20_000 });
  const found: string[] = [];
  for (const [what, id] of [['failed', broken], ['blocked', blocked], ['after', after], ['scheduled', scheduled], ['succeeded', done], ['running', long]] as const) {
    await page.locator(`[data-job-id="${id}"]`).click();
    await expect(page.locator(`[data-job-id="${id}"]`)).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByTestId('job-detail').getByTestId('job-state')).toBeVisible();
    if (what === 'failed') await expect(page.getByTestId('outcome-line')).toHaveText('cannot open photo.jpg');
    found.push(...(await scan(page, `a ${what} job selected`)));
  }
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: 'Add job…' }).first().click();
  const form = page.getByTestId('add-job');
  const field = form.getByRole('combobox', { name: 'Run after' });
  await field.fill(long);
  await field.press('Enter');
  await expect(form.getByTestId('after-chip')).toHaveCount(1);
  await field.fill('echo');
  await expect(form.getByTestId('after-options').getByRole('option').first()).toBeVisible();
  await field.press('ArrowDown');
  found.push(...(await scan(page, 'Run after with a chip and suggestions')));
  await field.fill(broken);
  await field.press('Enter');
  await expect(form.locator('.after-note')).toBeVisible();
  found.push(...(await scan(page, 'Run after saying why an id is not taken')));
  await form.getByRole('button', { name: 'Close' }).click();

  await daemon.cli('pause');
  await expect(page.getByTestId('paused')).toBeVisible();
  found.push(...(await scan(page, 'paused')));
  expect(found).toEqual([]);
});

test('the timeline panels can be reached and scrolled by keyboard', async ({ lanes: page, daemon }) => {
  for (let i = 0; i < 30; i++) await daemon.cli('add', '--', 'true');
  await page.getByRole('tab', { name: 'Scale timeline' }).click();
  const ledger = page.getByTestId('ledger');
  await expect(ledger.locator('li').first()).toBeVisible();
  const scroller = page.locator('[data-scroll-panel]').first();
  await expect(scroller).toHaveAttribute('tabindex', '0');
  await scroller.focus();
  await expect(scroller).toBeFocused();
});
