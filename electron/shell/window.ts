// The one window: created on first open, hidden (not destroyed) on close so reopening is instant
// and the app lives on in the tray. Sandboxed, isolated, no Node (window-options.ts); it talks
// only through the preload.
import { BrowserWindow, app } from 'electron';
import { APP_ENTRY_URL } from './renderer-origin.js';
import { windowOptions } from './window-options.js';

export interface WindowHandle {
  open(): void;
  /** Let the window really close (while quitting). */
  allowClose(): void;
  hide(): void;
}

export function setupWindow(options: { preload: string; icon?: string }): WindowHandle {
  let win: BrowserWindow | null = null;
  let closing = false;

  const create = () => {
    const created = new BrowserWindow(windowOptions({ ...options, platform: process.platform }));
    created.once('ready-to-show', () => created.show());
    created.on('close', (event) => {
      if (closing) return;
      // Closing the window is not quitting: the workers go on, the tray stays.
      event.preventDefault();
      created.hide();
      if (process.platform === 'darwin') app.dock?.hide();
    });
    created.on('closed', () => {
      if (win === created) win = null;
    });
    void created.loadURL(APP_ENTRY_URL);
    return created;
  };

  return {
    open() {
      if (process.platform === 'darwin') void app.dock?.show();
      if (!win) {
        win = create();
        return;
      }
      if (win.isMinimized()) win.restore();
      win.show();
      win.focus();
    },
    allowClose() {
      closing = true;
    },
    hide() {
      win?.hide();
    },
  };
}
