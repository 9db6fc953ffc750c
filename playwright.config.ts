// Browser tests of the window against a real `lanes daemon` (each test starts its own in a
// temporary data directory). Run after `npm run build`: the daemon serves dist/renderer/.
import { defineConfig } from '@playwright/test';
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

/** Debian's Chromium where it exists (Playwright cannot download browsers everywhere), else Playwright's own. */
function systemChromium(): string | undefined {
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  try {
    const found = execFileSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).trim();
    return found || undefined;
  } catch {
    return undefined;
  }
}

const executablePath = process.env.LANES_CHROMIUM ?? systemChromium();

// Each run writes its traces to a folder of its own: Playwright empties its output folder when
// a run starts, so two runs at once (a developer and an editor's test runner) would trip over
// each other. Set here once; the worker processes inherit it.
process.env.LANES_UI_RUN ??= `${Date.now().toString(36)}-${process.pid}`;

export default defineConfig({
  testDir: 'test/ui',
  testMatch: '**/*.spec.ts',
  outputDir: `test-results/ui-${process.env.LANES_UI_RUN}`,
  // Each test owns a daemon and its worker processes; on a 2-core machine one at a time is honest.
  workers: 1,
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
