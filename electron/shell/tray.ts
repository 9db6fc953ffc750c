// The tray icon and its menu in Electron: loads the icon images and adapts Electron's Tray to the
// view (tray-view.ts), which decides what to show and when. The shell state drives it; the
// engine's events drive the state, coalesced (engine-host.ts).
import fs from 'node:fs';
import path from 'node:path';
import { Menu, Tray, nativeImage, type NativeImage } from 'electron';
import type { ShellStore } from './shell-state.js';
import type { TrayDispatch } from './tray-actions.js';
import { TRAY_ICON_STATES, trayIconFile, trayLook, type TrayIconState } from './tray-look.js';
import type { MenuTemplateItem } from './tray-menu.js';
import { TrayView } from './tray-view.js';

export interface TrayHandle {
  /** The template last given to the OS (for the smoke test). */
  template(): MenuTemplateItem[];
  destroy(): void;
}

function loadIcon(file: string): NativeImage {
  // From a path, Electron reads "@2x" as "for a 2× screen" and would show Linux trays a 16 px
  // image; read as plain bytes it is a 32 px image the panel scales to its own size.
  const image = process.platform === 'linux' ? nativeImage.createFromBuffer(fs.readFileSync(file), { scaleFactor: 1 }) : nativeImage.createFromPath(file);
  // Template images let macOS draw the icon for a light or dark menu bar.
  if (process.platform === 'darwin') image.setTemplateImage(true);
  return image;
}

export function setupTray(options: {
  store: ShellStore;
  iconsDir: string;
  dispatch: TrayDispatch;
  /** A plain click on the icon (Windows, some Linux trays): open the window. */
  onClick: () => void;
}): TrayHandle {
  const icons = new Map<TrayIconState, NativeImage>(TRAY_ICON_STATES.map((state) => [state, loadIcon(path.join(options.iconsDir, trayIconFile(state, process.platform)))]));
  const first = trayLook(options.store.get(), Date.now()).icon;
  const tray = new Tray(icons.get(first) ?? nativeImage.createEmpty());
  const view = new TrayView({
    surface: {
      setIcon: (icon) => tray.setImage(icons.get(icon) ?? nativeImage.createEmpty()),
      setToolTip: (text) => tray.setToolTip(text),
      // Linux trays (AppIndicator) show nothing without a context menu; set it everywhere.
      setMenu: (template) => tray.setContextMenu(Menu.buildFromTemplate(template)),
    },
    state: () => options.store.get(),
    dispatch: options.dispatch,
    shownIcon: first,
  });
  view.render();
  const unsubscribe = options.store.subscribe(() => view.render());
  // On macOS a click opens the context menu by itself; elsewhere a click opens the window.
  if (process.platform !== 'darwin') tray.on('click', options.onClick);
  return {
    template: () => view.menu,
    destroy() {
      unsubscribe();
      tray.destroy();
    },
  };
}
