// An axe-core scan of the window's main views — the lanes with a nudge and a running job, the jobs
// list, a job open, the scale timeline, the help — in light and dark, failing on any serious or
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
