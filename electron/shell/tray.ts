// The tray icon and its menu. Both are rebuilt from the shell state when it changes (the engine's
// events drive that, coalesced), and only the parts that changed are handed to the OS: replacing a
// menu that is open closes it on some desktops, so an unchanged menu is left alone.
import fs from 'node:fs';
import path from 'node:path';
import { Menu, Tray, nativeImage, type MenuItemConstructorOptions, type NativeImage } from 'electron';
import type { ShellStore } from './shell-state.js';
import { TRAY_ICON_STATES, trayIconFile, trayLook, type TrayIconState } from './tray-look.js';
import { toMenuTemplate, trayMenuModel, type TrayAction } from './tray-menu.js';

export interface TrayHandle {
  /** The template last given to the OS (for the smoke test). */
  template(): MenuItemConstructorOptions[];
  destroy(): void;
}

function loadIcon(file: string): NativeImage {
  // From a path, Electron reads "@2x" as "for a 2× screen" and would show Linux trays a 16 px
  // image; read as plain bytes it is a 32 px image the panel scales to its own size.
  if (process.platform === 'linux') return nativeImage.createFromBuffer(fs.readFileSync(file), { scaleFactor: 1 });
  return nativeImage.createFromPath(file);
}

function loadIcons(iconsDir: string): Map<TrayIconState, NativeImage> {
  const icons = new Map<TrayIconState, NativeImage>();
  for (const state of TRAY_ICON_STATES) {
    const image = loadIcon(path.join(iconsDir, trayIconFile(state, process.platform)));
    // Template images let macOS draw the icon for a light or dark menu bar.
    if (process.platform === 'darwin') image.setTemplateImage(true);
    icons.set(state, image);
  }
  return icons;
}

export function setupTray(options: {
  store: ShellStore;
  iconsDir: string;
  dispatch: (action: TrayAction) => void;
  /** A plain click on the icon (Windows, some Linux trays): open the window. */
  onClick: () => void;
}): TrayHandle {
  const icons = loadIcons(options.iconsDir);
  const first = trayLook(options.store.get());
  const tray = new Tray(icons.get(first.icon) ?? nativeImage.createEmpty());
  let shownIcon: TrayIconState | null = first.icon;
  let shownTooltip = '';
  let shownModel = '';
  let template: MenuItemConstructorOptions[] = [];

  // The OS moves a radio or checkbox mark as soon as it is clicked. If the change then fails,
  // the model is what it was, and an unchanged model would leave the wrong mark showing: so after
  // such a click the next render always hands the OS a fresh menu.
  const dispatch = (action: TrayAction) => {
    if (action.type === 'setCap' || action.type === 'toggleStartAtLogin') shownModel = '';
    options.dispatch(action);
  };

  const render = () => {
    const state = options.store.get();
    const look = trayLook(state);
    if (look.icon !== shownIcon) {
      const image = icons.get(look.icon);
      if (image) tray.setImage(image);
      shownIcon = look.icon;
    }
    if (look.tooltip !== shownTooltip) {
      tray.setToolTip(look.tooltip);
      shownTooltip = look.tooltip;
    }
    const model = trayMenuModel(state);
    const key = JSON.stringify(model);
    if (key !== shownModel) {
      template = toMenuTemplate(model, dispatch);
      // Linux trays (AppIndicator) show nothing without a context menu; set it everywhere.
      tray.setContextMenu(Menu.buildFromTemplate(template));
      shownModel = key;
    }
  };

  render();
  const unsubscribe = options.store.subscribe(render);
  // On macOS a click opens the context menu by itself; elsewhere a click opens the window.
  if (process.platform !== 'darwin') tray.on('click', options.onClick);
  return {
    template: () => template,
    destroy() {
      unsubscribe();
      tray.destroy();
    },
  };
}
