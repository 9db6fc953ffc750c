// 100,000 queued jobs in front of the window, and what a person does with them: queue them while
// the window watches, open it afresh, fling the list, filter, page through with the keyboard.
// One scene for two readers: bulk.spec.ts checks what the view shows at each step; the window
// benchmark (bulk-bench.spec.ts) times the same steps. Times are taken in the page with
// performance.now(), except where the caller takes them from the test's own clock.
import type { Page } from '@playwright/test';
import type { TestDaemon } from '../support/daemon.js';
import type { PageGlobals } from './in-page.js';

export const TOTAL = 100_000;
/** The engine announces each job of a batch this size, so the window sees all 100,000 events. */
export const BATCH = 1_000;
/** How many rows a fling must page in. */
export const FLING_ROWS = 5_000;
/** Bounds on the in-page loops: past these the step has failed, whatever the machine's load. */
const FLING_BOUND_MS = 60_000;
const FILTER_BOUND_MS = 20_000;

/** A lane that never starts a worker, so all of them stay queued. */
export async function addHeldLane(daemon: TestDaemon): Promise<void> {
  await daemon.api('addLane', { name: 'bulk', cap: 0 });
}

/** Queues TOTAL jobs in batches; returns the last id. */
export async function queueAll(daemon: TestDaemon): Promise<number> {
  let lastId = 0;
  for (let n = 0; n < TOTAL; n += BATCH) {
    const jobs = Array.from({ length: BATCH }, (_, i) => ({ lane: 'bulk', argv: ['echo', `item ${n + i}`] }));
    lastId = (await daemon.api('addJobs', { jobs })).ids.at(-1)!;
  }
  return lastId;
}

/** From now on, the page keeps the durations of its main-thread tasks over 50 ms. */
export async function watchLongTasks(page: Page): Promise<void> {
  await page.evaluate(() => {
    const g = globalThis as unknown as PageGlobals;
    g.__lanesLongTasks = [];
    new g.PerformanceObserver((list) => g.__lanesLongTasks!.push(...list.getEntries().map((e) => e.duration))).observe({ type: 'longtask' });
  });
}

export function longTasks(page: Page): Promise<number[]> {
  return page.evaluate(() => (globalThis as unknown as PageGlobals).__lanesLongTasks ?? []);
}

export interface Fling {
  /** Each frame's length, ms. */
  frames: number[];
  ms: number;
  /** The highest row paged in. */
  reached: number;
}

/** Flings the list 1,500 px a frame until FLING_ROWS rows have been paged in (or the bound passes). */
export function fling(page: Page): Promise<Fling> {
  return page.evaluate(
    async ({ rows, boundMs }) => {
      const g = globalThis as unknown as PageGlobals;
      const list = g.document.querySelector('[data-testid="job-list"]')!;
      const frames: number[] = [];
      const start = g.performance.now();
      let last = start;
      let reached = 0;
      while (reached < rows && last - start < boundMs) {
        list.scrollTop += 1_500;
        await new Promise((r) => g.requestAnimationFrame(r));
        const now = g.performance.now();
        frames.push(now - last);
        last = now;
        const shown = list.querySelectorAll('[data-job-id]');
        reached = Number(shown[shown.length - 1]?.getAttribute('aria-rowindex') ?? 0) - 1;
      }
      return { frames, ms: last - start, reached };
    },
    { rows: FLING_ROWS, boundMs: FLING_BOUND_MS },
  );
}

export interface Filter {
  what: string;
  select: string;
  value: string;
  /** What the toolbar's count and the list together show once the filter has applied. */
  shows: string;
}

/** In this order, each from the state the one before left. */
export const FILTERS: Filter[] = [
  { what: 'state → succeeded (none)', select: '#filter-state', value: 'succeeded', shows: 'No jobs match this filter' },
  { what: 'state → queued (100,000)', select: '#filter-state', value: 'queued', shows: '100,000 jobs.*Queued' },
  { what: 'lane → worker (none)', select: '#filter-lane', value: 'worker', shows: 'No jobs match this filter' },
  { what: 'lane → bulk (100,000)', select: '#filter-lane', value: 'bulk', shows: '100,000 jobs.*Queued' },
  { what: 'state → running (none)', select: '#filter-state', value: 'running', shows: 'No jobs match this filter' },
  { what: 'state → any (100,000)', select: '#filter-state', value: '', shows: '100,000 jobs.*Queued' },
];

/**
 * Applies a filter as the select's change event does, and waits, frame by frame, until the list
 * shows its answer. Returns the ms from the change to that frame, or null if the answer never
 * showed within the bound.
 */
export function applyFilter(page: Page, f: Filter): Promise<number | null> {
  return page.evaluate(
    async ({ select, value, shows, boundMs }) => {
      const g = globalThis as unknown as PageGlobals;
      const el = g.document.querySelector(select)!;
      const start = g.performance.now();
      el.value = value;
      el.dispatchEvent(new g.Event('change', { bubbles: true }));
      for (;;) {
        await new Promise((r) => g.requestAnimationFrame(r));
        // The count (in the toolbar), then the list itself: the select's own options do not count.
        const text = `${g.document.querySelector('[data-testid="job-count"]')?.textContent ?? ''} ${g.document.querySelector('.jobs')?.textContent ?? ''}`;
        if (new RegExp(shows).test(text)) return g.performance.now() - start;
        if (g.performance.now() - start > boundMs) return null;
      }
    },
    { select: f.select, value: f.value, shows: f.shows, boundMs: FILTER_BOUND_MS },
  );
}

/** Selects the first row, then pages down through what is loaded. */
export async function pageThrough(page: Page): Promise<void> {
  await page.getByRole('grid').focus();
  await page.keyboard.press('ArrowDown');
  for (let i = 0; i < 20; i++) await page.keyboard.press('PageDown');
}
