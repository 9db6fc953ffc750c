// The pictures in the README and docs/window.md, taken from a real engine doing real work, in light
// and dark: the first-run help, lanes with a nudge, a job open, a failed job on its error, a cancel
// on its way, six lanes with three nudges (folded too), the same at 200 % zoom, and the scale
// timeline; then a day's control: the outlook, search oldest first, ticked jobs, pause, attempts,
// and the forms. Only with LANES_SCREENSHOTS=1, so an ordinary test run never rewrites the images.
import type { Page } from '@playwright/test';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect, laneRow, startWindowDaemon } from './fixtures.js';
import { dismissHelp, sixLanesThreeNudges } from './scene.js';
import { shoot, SHOOTING } from './shoot.js';

test.skip(!SHOOTING, 'set LANES_SCREENSHOTS=1 to rewrite docs/screenshots/');
test.setTimeout(240_000);

/** Small stand-ins for real work, so the commands in the pictures read like a person's own. */
function workDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'lanes-shots-'));
  const script = (name: string, body: string) => {
    writeFileSync(join(dir, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(dir, name), 0o755);
  };
  script(
    'make-thumb.sh',
    [
      'echo "reading $1"',
      'sleep 2',
      'case "$1" in *.HEIC) echo "make-thumb: cannot decode $1: no HEIC decoder installed" >&2; exit 2;; esac',
      'echo "resized to 1024 px"',
      'echo "wrote thumbs/$(basename "$1")"',
    ].join('\n'),
  );
  script('render-frame.sh', 'echo "rendering frame $1 of 4,061"\nsleep 12\necho "frame $1 done"');
  script('index-docs.sh', 'echo "indexing $1"\nsleep 40');
  return dir;
}

/** A held request: the picture is taken while the engine has not answered yet. */
async function holdCancels(page: Page): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((done) => (release = done));
  await page.route('**/api/jobs/*/cancel', async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

test.describe('at 100 %', () => {
  test.use({ viewport: { width: 1100, height: 760 } });

  test('a day’s work: help, lanes, a job, a failure, a cancel, the timeline', async ({ lanes: page, daemon }) => {
    const cwd = workDir();
    try {
      await daemon.api('addLane', { name: 'thumbs', class: 'cpu', cap: 3 });
      const frames = Array.from({ length: 4_061 }, (_, i) => ({ lane: 'worker', cwd, argv: ['./render-frame.sh', String(i + 1)] }));
      await daemon.api('addJobs', { jobs: frames });
      const photos = Array.from({ length: 12 }, (_, i) => ({ lane: 'thumbs', cwd, argv: ['./make-thumb.sh', `photos/IMG_${1040 + i}.${i === 4 ? 'HEIC' : 'jpg'}`], maxAttempts: 2 }));
      await daemon.api('addJobs', { jobs: photos });

      const worker = laneRow(page, 'worker');
      const thumbs = laneRow(page, 'thumbs');
      await expect(worker.getByTestId('nudge')).toContainText('4,060 waiting and all 1 worker busy');
      await expect(thumbs.getByTestId('failed')).toHaveText('1', { timeout: 60_000 });
      await expect.poll(async () => (await daemon.api('status', {})).lanes.find((l) => l.name === 'thumbs')?.succeeded ?? 0, { timeout: 60_000 }).toBeGreaterThanOrEqual(6);
      await shoot(page, 'help');
      await dismissHelp(page);

      await page.getByLabel('Lane', { exact: true }).selectOption('thumbs');
      await shoot(page, 'lanes');
      await shoot(page, 'nudge', worker);

      await page.locator('[data-job-id]', { has: page.locator('.badge', { hasText: 'Succeeded' }) }).first().click();
      await expect(page.getByTestId('log-text')).toContainText('wrote thumbs/');
      await shoot(page, 'jobs');

      await page.locator('[data-job-id]', { has: page.locator('.badge', { hasText: 'Failed' }) }).first().click();
      await expect(page.getByTestId('log-text')).toContainText('no HEIC decoder');
      await shoot(page, 'failed');

      // The frame being rendered is the oldest of 4,061: the running filter finds it.
      await page.getByLabel('Lane', { exact: true }).selectOption('worker');
      await page.getByLabel('State', { exact: true }).selectOption('running');
      await page.locator('[data-job-id]').first().click();
      await expect(page.getByTestId('log-text')).toContainText('rendering frame');
      const release = await holdCancels(page);
      await page.getByTestId('job-detail').getByRole('button', { name: 'Cancel' }).click();
      await expect(page.getByTestId('job-state')).toHaveText('Cancelling…');
      await shoot(page, 'cancelling');
      release();
      await expect(page.getByTestId('job-state')).toHaveText('Cancelled');
      await page.keyboard.press('Escape');
      await page.getByLabel('State', { exact: true }).selectOption('');

      // Act on the nudge while the photos still hold workers: the machine is shared, then the
      // render lane takes the rest once the photos are done.
      await worker.getByRole('button', { name: /Raise to/ }).click();
      await expect(thumbs.getByTestId('waiting')).toHaveText('0', { timeout: 60_000 });
      await expect(worker.locator('.pips .pip-busy')).toHaveCount(7, { timeout: 60_000 });
      await expect(thumbs.locator('.pips .pip-busy, .pips .pip-idle')).toHaveCount(0, { timeout: 60_000 });
      // A second batch of photos while the renders hold the whole machine: the photos get a worker
      // as soon as a frame finishes (every lane with work gets one), then give it back.
      await daemon.api('addJobs', { jobs: Array.from({ length: 6 }, (_, i) => ({ lane: 'thumbs', cwd, argv: ['./make-thumb.sh', `photos/IMG_${1060 + i}.jpg`] })) });
      await expect(thumbs.getByTestId('mood')).toHaveText('Sharing the machine');
      await expect(thumbs.locator('.pips .pip-busy')).toHaveCount(1, { timeout: 30_000 });
      await expect(thumbs.getByTestId('waiting')).toHaveText('0', { timeout: 60_000 });
      await expect(thumbs.locator('.pips .pip-busy, .pips .pip-idle')).toHaveCount(0, { timeout: 60_000 });
      await page.getByRole('tab', { name: 'Scale timeline' }).click();
      await expect(page.getByTestId('ledger').locator('li')).not.toHaveCount(0);
      await shoot(page, 'timeline');
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });

  test('six lanes, three nudges, a job open; then the lanes folded', async ({ lanes: page, daemon }) => {
    const cwd = workDir();
    try {
      await dismissHelp(page);
      await sixLanesThreeNudges(page, daemon, { cwd, argv: sceneCommand });
      await shoot(page, 'six-lanes');
      await page.locator('[data-job-id]', { has: page.locator('.badge', { hasText: 'Running' }) }).first().click();
      await expect(page.getByTestId('log-text')).not.toBeEmpty();
      await shoot(page, 'six-lanes-job');
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Lanes', exact: true }).click();
      await shoot(page, 'lanes-folded');
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});

test.describe('a day’s control, at 100 %', () => {
  test.use({ viewport: { width: 1100, height: 760 } });

  test('the outlook and a nudge with its estimate, paused, ticked jobs, search oldest first, attempts, the forms', async ({ lanes: page, daemon }) => {
    const cwd = workDir();
    try {
      await dismissHelp(page);
      // A job that fails twice, in a lane of its own so it is done by the time it is looked at.
      await daemon.api('addLane', { name: 'heic', class: 'cpu', cap: 1 });
      const { id } = await daemon.api('addJob', { lane: 'heic', cwd, argv: ['./make-thumb.sh', 'photos/IMG_0001.HEIC'], maxAttempts: 2 });
      await daemon.api('addLane', { name: 'thumbs', class: 'cpu', cap: 2 });
      await daemon.api('addJobs', { jobs: Array.from({ length: 900 }, (_, i) => ({ lane: 'thumbs', cwd, argv: ['./make-thumb.sh', `photos/IMG_${3000 + i}.jpg`] })) });
      await daemon.api('addJobs', { jobs: Array.from({ length: 40 }, (_, i) => ({ cwd, argv: ['./render-frame.sh', String(i + 1)] })) });
      const thumbs = laneRow(page, 'thumbs');
      await expect(thumbs.getByTestId('lane-eta')).toContainText('left, about', { timeout: 30_000 });
      await expect(thumbs.getByTestId('nudge')).toContainText(/at 2 workers/, { timeout: 30_000 });
      await shoot(page, 'outlook');

      // Oldest first, searched: the running photos on top.
      await page.getByRole('radio', { name: 'Oldest' }).click();
      await page.getByRole('searchbox', { name: 'Search commands' }).fill('IMG_30');
      await expect(page.getByTestId('job-count')).toContainText('found');
      await shoot(page, 'search-oldest');
      await page.getByRole('searchbox', { name: 'Search commands' }).fill('');
      await page.getByRole('radio', { name: 'Newest' }).click();
      await expect(page.getByRole('grid')).toHaveAttribute('aria-label', 'Jobs, newest first');
      await expect(page.getByTestId('job-count')).toHaveText(/jobs$/);

      // Ticked jobs, and the bar that acts on them.
      const rows = page.locator('[data-job-id]');
      for (const i of [0, 1, 2]) await rows.nth(i).getByRole('checkbox').check();
      await expect(page.getByTestId('bulk-bar')).toContainText('3 jobs selected');
      await page.getByTestId('bulk-bar').getByRole('button', { name: 'Cancel 3' }).click();
      await shoot(page, 'bulk');
      await page.getByTestId('bulk-bar').getByRole('button', { name: 'Yes, cancel 3 jobs' }).click();
      await expect(page.getByTestId('notice')).toContainText('Cancelled 3 jobs');

      // Paused for an hour.
      await page.getByRole('button', { name: 'Pause all ▾' }).click();
      await expect(page.getByRole('menu')).toBeVisible();
      await shoot(page, 'pause-menu');
      await page.getByRole('menuitem', { name: 'For 1 hour' }).click();
      await expect(page.getByTestId('paused')).toBeVisible();
      await shoot(page, 'paused');
      await page.getByTestId('paused').getByRole('button', { name: 'Resume now' }).click();

      // A job that failed twice, read as one story with a line between its attempts.
      await page.getByLabel('Lane', { exact: true }).selectOption('heic');
      await page.getByLabel('State', { exact: true }).selectOption('failed');
      await expect(page.locator(`[data-job-id="${id}"]`)).toBeVisible({ timeout: 30_000 });
      await page.locator(`[data-job-id="${id}"]`).click();
      await page.getByTestId('job-detail').getByRole('radio', { name: 'all' }).click();
      await expect(page.getByTestId('attempt-line')).toBeVisible();
      await shoot(page, 'attempts');
      await page.keyboard.press('Escape');

      // The forms.
      await page.getByRole('button', { name: 'Add job…' }).click();
      await page.getByTestId('add-job').getByLabel('Command line').fill('./make-thumb.sh photos/IMG_4000.jpg');
      await shoot(page, 'add-job');
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Add lane…' }).click();
      const laneForm = page.getByTestId('add-lane');
      await laneForm.getByLabel('Name').fill('words');
      await laneForm.getByLabel('Class').selectOption('ml');
      await laneForm.getByLabel('Cap').fill('1');
      await laneForm.getByLabel('Worker command (optional)').fill('python3 examples/word_stats_worker.py');
      await shoot(page, 'add-lane');
      await page.keyboard.press('Escape');
      await thumbs.hover();
      await thumbs.getByRole('button', { name: 'Remove lane thumbs' }).click();
      await expect(page.getByTestId('remove-lane')).toContainText('still holds');
      await shoot(page, 'remove-lane');
      await page.keyboard.press('Escape');
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});

test.describe('a window whose engine restarted, at 100 %', () => {
  test.use({ viewport: { width: 1100, height: 760 } });

  test('greyed, its clocks stopped, its controls out of reach, saying what happened', async ({ lanes: page, daemon }) => {
    const cwd = workDir();
    try {
      await dismissHelp(page);
      await sixLanesThreeNudges(page, daemon, { cwd, argv: sceneCommand });
      await daemon.stop();
      const again = await startWindowDaemon({ dataDir: daemon.dataDir, port: daemon.port });
      try {
        await expect(page.getByTestId('stale')).toContainText('Lanes restarted', { timeout: 15_000 });
        await shoot(page, 'stale');
      } finally {
        await again.stop();
      }
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});

test.describe('at 200 % zoom', () => {
  test.use({ viewport: { width: 550, height: 380 }, deviceScaleFactor: 2 });

  test('six lanes and three nudges, the jobs, and a job’s own view', async ({ lanes: page, daemon }) => {
    const cwd = workDir();
    try {
      await dismissHelp(page);
      await sixLanesThreeNudges(page, daemon, { cwd, argv: sceneCommand });
      await shoot(page, 'zoom-lanes');
      await page.locator('section.work').evaluate((el: { scrollIntoView(options: object): void }) => el.scrollIntoView({ block: 'start' }));
      await shoot(page, 'zoom-jobs');
      await page.locator('[data-job-id]', { has: page.locator('.badge', { hasText: 'Running' }) }).first().click();
      await expect(page.getByTestId('log-text')).not.toBeEmpty();
      await shoot(page, 'zoom-job');
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});

function sceneCommand(lane: string, i: number): string[] {
  if (lane === 'thumbs') return ['./make-thumb.sh', `photos/IMG_${2000 + i}.jpg`];
  if (lane === 'render') return ['./render-frame.sh', String(i + 1)];
  return ['./index-docs.sh', `notes/2026-${String(i + 1).padStart(2, '0')}.md`];
}
