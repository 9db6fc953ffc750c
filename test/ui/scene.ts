// A window under load, as the layout tests and the screenshots want it: six lanes, three of them
// at their cap with a backlog (so three nudges), two quiet ones, and the built-in ml lane off.
import type { Page } from '@playwright/test';
import type { TestDaemon } from '../support/daemon.js';
import { expect } from './fixtures.js';

export const BACKLOG_LANES = ['worker', 'thumbs', 'render'] as const;

export interface SceneJobs {
  perLane?: number;
  /** What each backlog job runs (default: a minute's sleep) and where. */
  argv?: (lane: string, i: number) => string[];
  cwd?: string;
}

export async function sixLanesThreeNudges(page: Page, daemon: TestDaemon, jobs: SceneJobs = {}): Promise<void> {
  const { perLane = 8, argv = () => ['sleep', '60'], cwd } = jobs;
  for (const name of ['thumbs', 'render', 'backup', 'index']) await daemon.api('addLane', { name, class: 'cpu', cap: 1 });
  for (const lane of BACKLOG_LANES) {
    await daemon.api('addJobs', { jobs: Array.from({ length: perLane }, (_, i) => ({ lane, argv: argv(lane, i), ...(cwd ? { cwd } : {}) })) });
  }
  await expect(page.locator('li.lane')).toHaveCount(6);
  await expect(page.getByTestId('nudge')).toHaveCount(3);
}

/** The first-run help is a person's first screen, not the one these tests measure. */
export async function dismissHelp(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Got it' }).click();
  await expect(page.getByTestId('help')).toHaveCount(0);
}
