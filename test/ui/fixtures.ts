// The `daemon` fixture: every test gets its own engine, so caps and queues never leak between
// tests, and the page opened at its address.
import { rmSync } from 'node:fs';
import { test as base, expect, type Page } from '@playwright/test';
import { startDaemon, type TestDaemon } from '../support/daemon.js';

export interface WindowDaemonOptions {
  /** Reuse a data directory and port (a restart); default: a fresh directory, a free port. */
  dataDir?: string;
  port?: number;
  /** Machine facts to run as (LANES_POWER, LANES_MEMORY …), over the defaults below. */
  env?: Record<string, string>;
}

/**
 * A daemon as the window tests want it: a machine of 7 cores, all working since a daemon knows
 * nobody at the computer (ceiling 7), a sizer tick short
 * enough that idle lanes shrink within a test, and a short grace so stopping is quick.
 */
export function startWindowDaemon(options: WindowDaemonOptions = {}): Promise<TestDaemon> {
  return startDaemon({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    args: ['--grace', '2', ...(options.port !== undefined ? ['--port', String(options.port)] : [])],
    env: { LANES_TICK_MS: '300', LANES_CORES: '7', ...options.env },
  });
}

export const test = base.extend<{ daemonEnv: Record<string, string>; daemon: TestDaemon; lanes: Page }>({
  /** A spec's machine: `test.use({ daemonEnv: { LANES_POWER: 'battery' } })`. */
  daemonEnv: [{}, { option: true }],
  daemon: async ({ daemonEnv }, use) => {
    const daemon = await startWindowDaemon({ env: daemonEnv });
    try {
      await use(daemon);
    } finally {
      await daemon.stop();
      rmSync(daemon.dataDir, { recursive: true, force: true });
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
