// The one window: created on first open, hidden (not destroyed) on close so reopening is instant
// and the app lives on in the tray. Sandboxed, isolated, no Node; it talks only through the preload.
import { BrowserWindow, app } from 'electron';
import { APP_ENTRY_URL } from './renderer-origin.js';

export interface WindowHandle {
  open(): void;
  /** Let the window really close (while quitting). */
  allowClose(): void;
  hide(): void;
  current(): BrowserWindow | null;
}

export function setupWindow(options: { preload: string; icon?: string }): WindowHandle {
  let win: BrowserWindow | null = null;
  let closing = false;

  const create = () => {
    const created = new BrowserWindow({
      width: 1180,
      height: 760,
      minWidth: 720,
      minHeight: 480,
      show: false,
      title: 'Lanes',
      ...(options.icon && process.platform === 'linux' ? { icon: options.icon } : {}),
      webPreferences: {
        preload: options.preload,
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        webSecurity: true,
        spellcheck: false,
      },
    });
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
    current: () => win,
  };
}
