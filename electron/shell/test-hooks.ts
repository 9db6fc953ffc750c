// Handles for the Playwright smoke test, which runs code in main with electronApp.evaluate():
// it cannot click a tray menu, so it reads the menu template and clicks items by id. Installed
// only when LANES_E2E=1 is set by the test.
import type { MenuItemConstructorOptions } from 'electron';
import { findItem } from './tray-menu.js';

export interface LanesTestHooks {
  trayItemIds(): string[];
  trayItem(id: string): { label?: string; checked?: boolean; enabled?: boolean } | null;
  clickTrayItem(id: string): boolean;
}

function ids(items: MenuItemConstructorOptions[]): string[] {
  return items.flatMap((item) => [...(item.id ? [item.id] : []), ...(Array.isArray(item.submenu) ? ids(item.submenu) : [])]);
}

export function installTestHooks(template: () => MenuItemConstructorOptions[]): void {
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
      // The handlers built by toMenuTemplate ignore their arguments.
      (item.click as () => void)();
      return true;
    },
  };
  (globalThis as { __lanesTest?: LanesTestHooks }).__lanesTest = hooks;
}
