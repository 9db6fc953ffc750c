// The `daemon` fixture: every test gets its own engine, so caps and queues never leak between
// tests, and the page opened at its address.
import { test as base, expect, type Page } from '@playwright/test';
import { startDaemon, type Daemon, type DaemonOptions } from './daemon.js';

export const test = base.extend<{ daemonOptions: DaemonOptions; daemon: Daemon; lanes: Page }>({
  daemonOptions: [{}, { option: true }],
  daemon: async ({ daemonOptions }, use) => {
    const daemon = await startDaemon(daemonOptions);
    try {
      await use(daemon);
    } finally {
      await daemon.stop();
    }
  },
  /** The window, loaded and connected; fails the test on any page error or CSP refusal. */
  lanes: async ({ page, daemon }, use) => {
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('console', (m) => {
      // The engine's strict CSP must never have to refuse anything the window does.
      if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) problems.push(`console: ${m.text()}`);
    });
    // Chromium reports some refusals (an eval probe) only as an event, not on the console.
    await page.exposeFunction('__lanesCspViolation', (text: string) => problems.push(`CSP refused: ${text}`));
    await page.addInitScript({
      content: `document.addEventListener('securitypolicyviolation', (e) => window.__lanesCspViolation(e.violatedDirective + ' ' + e.blockedURI + ' at ' + e.sourceFile + ':' + e.lineNumber));`,
    });
    await page.goto(daemon.url);
    await expect(page.getByRole('status').filter({ hasText: 'Connected' })).toBeVisible();
    await expect(page.locator('li.lane').first()).toBeVisible();
    await use(page);
    expect(problems, 'the window logged errors').toEqual([]);
  },
});

export { expect };

/** A lane's row in the window. */
export function laneRow(page: Page, name: string) {
  return page.locator(`li.lane[data-lane="${name}"]`);
}
