// Pictures for docs/screenshots/, light and dark, taken from a real engine doing real work. Only
// with LANES_SCREENSHOTS=1, so an ordinary test run never rewrites the images.
import type { Locator, Page } from '@playwright/test';
import type { PageGlobals } from './in-page.js';

export const SHOOTING = process.env.LANES_SCREENSHOTS === '1';

/** docs/screenshots/NAME-light.png and NAME-dark.png, of the page or of one part of it. */
export async function shoot(page: Page, name: string, target?: Locator): Promise<void> {
  // The scripts run in a throwaway temporary folder: the pictures leave out where it happened to
  // be. (Set through the DOM: the window's CSP rightly refuses an injected style sheet.)
  await page.evaluate(() => {
    const g = globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<{ style: { display: string } }> } };
    for (const el of Array.from(g.document.querySelectorAll('[data-fact="folder"]'))) el.style.display = 'none';
  });
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

/** A picture for the docs when LANES_SCREENSHOTS=1; otherwise nothing, so a test can show what it checked. */
export async function shootIfAsked(page: Page, name: string, target?: Locator): Promise<void> {
  if (SHOOTING) await shoot(page, name, target);
}
