// The README's pictures, taken from a real engine doing real work: lanes with a nudge, the jobs
// view with a job open, and the scale timeline, in light and dark. Only with LANES_SCREENSHOTS=1,
// so an ordinary test run never rewrites the committed images.
import type { Locator, Page } from '@playwright/test';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect, laneRow } from './fixtures.js';
import type { PageGlobals } from './in-page.js';

test.skip(process.env.LANES_SCREENSHOTS !== '1', 'set LANES_SCREENSHOTS=1 to rewrite docs/screenshots/');
test.setTimeout(240_000);
test.use({ viewport: { width: 1100, height: 900 } });

async function shoot(page: Page, name: string, target?: Locator): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    // Let the charts redraw in the new colours before the picture.
    await page.evaluate(() => {
      const g = globalThis as unknown as PageGlobals;
      return new Promise((r) => g.requestAnimationFrame(() => g.requestAnimationFrame(r)));
    });
    await (target ?? page).screenshot({ path: `docs/screenshots/${name}-${colorScheme}.png`, animations: 'disabled', caret: 'hide' });
  }
}

/** Small stand-ins for real work, so the commands in the pictures read like a person's own. */
function workDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'lanes-shots-'));
  const script = (name: string, body: string) => {
    writeFileSync(join(dir, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(dir, name), 0o755);
  };
  script('make-thumb.sh', 'echo "reading $1"\nsleep 2\necho "resized to 1024 px"\necho "wrote thumbs/$(basename "$1")"');
  script('render-frame.sh', 'echo "rendering frame $1 of 4,061"\nsleep 12\necho "frame $1 done"');
  return dir;
}

test('screenshots', async ({ lanes: page, daemon }) => {
  const cwd = workDir();
  try {
    await daemon.api('addLane', { name: 'thumbs', class: 'cpu', cap: 3 });
    const frames = Array.from({ length: 4_061 }, (_, i) => ({ lane: 'worker', cwd, argv: ['./render-frame.sh', String(i + 1)] }));
    await daemon.api('addJobs', { jobs: frames });
    const photos = Array.from({ length: 12 }, (_, i) => ({ lane: 'thumbs', cwd, argv: ['./make-thumb.sh', `photos/IMG_${1040 + i}.jpg`] }));
    await daemon.api('addJobs', { jobs: photos });

    const worker = laneRow(page, 'worker');
    const thumbs = laneRow(page, 'thumbs');
    await expect(worker.getByTestId('nudge')).toContainText('4,060 waiting and all 1 worker busy');
    await expect.poll(async () => (await daemon.api('status', {})).lanes.find((l) => l.name === 'thumbs')?.succeeded ?? 0, { timeout: 60_000 }).toBeGreaterThanOrEqual(5);

    await page.getByLabel('Lane', { exact: true }).selectOption('thumbs');
    await shoot(page, 'lanes');
    await shoot(page, 'nudge', worker);

    await page.locator('[data-job-id]', { has: page.locator('.badge', { hasText: 'Succeeded' }) }).first().click();
    await expect(page.getByTestId('log-text')).toContainText('wrote thumbs/');
    await shoot(page, 'jobs');

    // Act on the nudge while the photos still hold three workers: the machine is shared, then
    // the render lane takes the rest once the photos are done.
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
