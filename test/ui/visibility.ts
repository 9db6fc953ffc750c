// Is an element really on screen? Playwright's toBeInViewport says whether it meets the viewport;
// this also says whether an ancestor that scrolls or hides overflow cuts it off — the way a job's
// detail used to render below the list, inside a box that clipped it.
import type { Locator } from '@playwright/test';

interface Rect {
  top: number;
  left: number;
  bottom: number;
  right: number;
}
interface Node {
  parentElement: Node | null;
  getBoundingClientRect(): Rect;
  tagName: string;
  className: string;
  matches(selector: string): boolean;
}
interface Globals {
  innerWidth: number;
  innerHeight: number;
  getComputedStyle(el: Node): { overflowX: string; overflowY: string };
}

/** What cuts the element off (the viewport, or an ancestor's overflow), in words; [] when nothing does. */
export function clippedBy(target: Locator): Promise<string[]> {
  return target.evaluate((el: Node) => {
    const g = globalThis as unknown as Globals;
    const me = el.getBoundingClientRect();
    const cuts: string[] = [];
    // Half a pixel of rounding is not a cut.
    const outside = (r: Rect) => me.top < r.top - 0.5 || me.left < r.left - 0.5 || me.bottom > r.bottom + 0.5 || me.right > r.right + 0.5;
    if (outside({ top: 0, left: 0, bottom: g.innerHeight, right: g.innerWidth })) cuts.push(`the viewport (${JSON.stringify(me)})`);
    // A modal dialog is drawn in the top layer: its ancestors' boxes cannot cut it off.
    for (let p = el.matches(':modal') ? null : el.parentElement; p; p = p.matches(':modal') ? null : p.parentElement) {
      const style = g.getComputedStyle(p);
      if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
      const box = p.getBoundingClientRect();
      if (outside(box)) cuts.push(`${p.tagName.toLowerCase()}.${p.className} (${JSON.stringify(box)})`);
    }
    return cuts;
  });
}

/** How many of the list's job rows are wholly on screen: inside the list's box and the viewport. */
export function rowsOnScreen(list: Locator): Promise<number> {
  return list.evaluate((el: Node & { querySelectorAll(s: string): ArrayLike<Node> }) => {
    const g = globalThis as unknown as Globals;
    const box = el.getBoundingClientRect();
    const top = Math.max(0, box.top);
    const bottom = Math.min(g.innerHeight, box.bottom);
    return Array.from(el.querySelectorAll('[data-job-id]')).filter((row) => {
      const r = row.getBoundingClientRect();
      return r.top >= top - 0.5 && r.bottom <= bottom + 0.5;
    }).length;
  });
}
