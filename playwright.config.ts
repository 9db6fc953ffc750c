// Browser tests of the window against a real `lanes daemon` (each test starts its own in a
// temporary data directory). Run after `npm run build`: the daemon serves dist/renderer/.
import { defineConfig } from '@playwright/test';
import { findChromium } from './test/setup/provision.mjs';

// The same lookup `npm test` provisions with (LANES_CHROMIUM, the system's Chromium, then
// Playwright's own), so the browser the log reports is the one the tests launch.
const executablePath = findChromium();

// Each run writes its traces to a folder of its own: Playwright empties its output folder when
// a run starts, so two runs at once (a developer and an editor's test runner) would trip over
// each other. Set here once; the worker processes inherit it.
process.env.LANES_UI_RUN ??= `${Date.now().toString(36)}-${process.pid}`;

export default defineConfig({
  testDir: 'test/ui',
  testMatch: '**/*.spec.ts',
  outputDir: `test-results/ui-${process.env.LANES_UI_RUN}`,
  // Each test owns a daemon, its worker processes and a browser, and waits on them far more than
  // it computes: two at a time halve the run even on two cores, and every wait is for an event.
  workers: 2,
  fullyParallel: false,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  retries: 0,
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : 'list',
  use: {
    browserName: 'chromium',
    viewport: { width: 1100, height: 760 },
    actionTimeout: 10_000,
    trace: 'retain-on-failure',
    launchOptions: {
      ...(executablePath ? { executablePath } : {}),
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
});
