// Handles for the Playwright smoke test, which runs code in main with electronApp.evaluate():
// it cannot click a tray menu, so it reads the menu template and clicks items by id. Installed
// only when LANES_E2E=1 is set by the test.
import { findItem, type MenuTemplateItem } from './tray-menu.js';

export interface LanesTestHooks {
  trayItemIds(): string[];
  trayItem(id: string): { label?: string; checked?: boolean; enabled?: boolean } | null;
  clickTrayItem(id: string): boolean;
}

function ids(items: MenuTemplateItem[]): string[] {
  return items.flatMap((item) => [item.id, ...(item.submenu ? ids(item.submenu) : [])]);
}

export function installTestHooks(template: () => MenuTemplateItem[]): void {
  if (process.env.LANES_E2E !== '1') return;
  const hooks: LanesTestHooks = {
    trayItemIds: () => ids(template()),
    trayItem(id) {
      const item = findItem(template(), id);
      return item ? { label: item.label, checked: item.checked, enabled: item.enabled } : null;
    },
    clickTrayItem(id) {
      const item = findItem(template(), id);
      if (!item?.click) return false;
      item.click();
      return true;
    },
  };
  (globalThis as { __lanesTest?: LanesTestHooks }).__lanesTest = hooks;
}
