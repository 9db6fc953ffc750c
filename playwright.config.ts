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

export default defineConfig({
  testDir: 'test/ui',
  testMatch: '**/*.spec.ts',
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
