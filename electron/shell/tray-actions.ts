// What each tray menu action does. The menu itself is data (tray-menu.ts); this is the one place
// its actions touch the engine, the window, the login item and the quit sequence.
import type { EngineHost } from './engine-host.js';
import type { LoginItem } from './login-item.js';
import type { ShellStore } from './shell-state.js';
import type { TrayAction } from './tray-menu.js';

export interface TrayActionDeps {
  host: EngineHost;
  store: ShellStore;
  login: LoginItem;
  openWindow: () => void;
  quit: () => void;
  quitNow: () => void;
  /** Tell the person something went wrong (a notification). */
  warn: (title: string, body: string) => void;
  log: (line: string) => void;
}

export function trayActions(deps: TrayActionDeps): (action: TrayAction) => void {
  return (action) => {
    switch (action.type) {
      case 'setCap': {
        const engine = deps.host.engine();
        if (!engine) return;
        engine
          .request('setCap', { lane: action.lane, cap: action.cap })
          .then(() => deps.host.refresh())
          .catch((error: unknown) => {
            const message = error instanceof Error ? error.message : String(error);
            deps.log(`tray: setting ${action.lane}'s cap to ${action.cap} failed: ${message}`);
            deps.warn(`Could not set ${action.lane}'s cap`, message);
            // Put the radio back where the engine says it is.
            deps.host.refresh();
          });
        return;
      }
      case 'open':
        return deps.openWindow();
      case 'toggleStartAtLogin':
        try {
          deps.login.set(action.on);
        } catch (error) {
          deps.warn('Could not change Start at login', error instanceof Error ? error.message : String(error));
        }
        deps.store.set({ startAtLogin: deps.login.isOn() });
        return;
      case 'retry':
        void deps.host.start();
        return;
      case 'quit':
        return deps.quit();
      case 'quitNow':
        return deps.quitNow();
    }
  };
}
