// The few browser globals the measuring code touches inside the page. The test project compiles
// without DOM types (it runs in Node), so these say just enough; functions handed to
// page.evaluate() are serialized and run in the page, where the real objects live.
export interface PageElement {
  scrollTop: number;
  scrollHeight: number;
  clientHeight: number;
  textContent: string | null;
  value: string;
  getAttribute(name: string): string | null;
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): ArrayLike<PageElement>;
  dispatchEvent(event: unknown): boolean;
}

export interface PageGlobals {
  document: { querySelector(selector: string): PageElement | null };
  performance: { now(): number };
  requestAnimationFrame(callback: (at: number) => void): number;
  Event: new (type: string, init?: { bubbles?: boolean }) => unknown;
  PerformanceObserver: new (callback: (list: { getEntries(): { duration: number }[] }) => void) => {
    observe(options: { type: string; buffered?: boolean }): void;
    disconnect(): void;
  };
  __lanesLongTasks?: number[];
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
