// What each tray menu action does. The menu itself is data (tray-menu.ts); this is the one place
// its actions touch the engine, the window, the login item and the quit sequence. The engine is
// reached through the shared client, like every other caller; what the tray then shows comes
// from the engine's events alone (engine-host.ts), never from an action's answer.
import type { LanesClient } from '../../shared/client/client.js';
import type { LoginItem } from './login-item.js';
import type { ShellStore } from './shell-state.js';
import type { TrayAction } from './tray-menu.js';

/** 'failed': the action did not take effect (the person has been told why). */
export type ActionOutcome = 'done' | 'failed';
/** Never rejects: a failing action is logged and answered 'failed', the app goes on. */
export type TrayDispatch = (action: TrayAction) => Promise<ActionOutcome>;

export interface TrayActionDeps {
  /** The client of the running engine; null while it is starting, failed or stopped. */
  client: () => LanesClient | null;
  /** Start the engine again after it failed to start. */
  retry: () => void;
  store: ShellStore;
  login: LoginItem;
  openWindow: () => void;
  quit: () => void;
  quitNow: () => void;
  /** Tell the person something went wrong (a notification). */
  warn: (title: string, body: string) => void;
  log: (line: string) => void;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function trayActions(deps: TrayActionDeps): TrayDispatch {
  const setCap = async (lane: string, cap: number): Promise<ActionOutcome> => {
    const client = deps.client();
    if (!client) return 'failed';
    try {
      // The engine announces the new cap as a `lane` event; that is what moves the tray.
      await client.call('setCap', { lane, cap });
      return 'done';
    } catch (error) {
      deps.log(`tray: setting ${lane}'s cap to ${cap} failed: ${messageOf(error)}`);
      deps.warn(`Could not set ${lane}'s cap`, messageOf(error));
      return 'failed';
    }
  };

  const toggleStartAtLogin = (on: boolean): ActionOutcome => {
    let outcome: ActionOutcome = 'done';
    try {
      deps.login.set(on);
    } catch (error) {
      deps.warn('Could not change Start at login', messageOf(error));
      outcome = 'failed';
    }
    // Whatever happened, show what the OS now says.
    deps.store.set({ startAtLogin: deps.login.isOn() });
    return outcome;
  };

  // Actions that cannot fail here: they hand over to the window, the engine host or the quit sequence.
  const handOver: Record<Exclude<TrayAction['type'], 'setCap' | 'toggleStartAtLogin'>, () => void> = {
    open: deps.openWindow,
    retry: deps.retry,
    quit: deps.quit,
    quitNow: deps.quitNow,
  };

  const run = async (action: TrayAction): Promise<ActionOutcome> => {
    if (action.type === 'setCap') return setCap(action.lane, action.cap);
    if (action.type === 'toggleStartAtLogin') return toggleStartAtLogin(action.on);
    handOver[action.type]();
    return 'done';
  };

  return async (action) => {
    try {
      return await run(action);
    } catch (error) {
      deps.log(`tray: ${action.type} failed: ${messageOf(error)}`);
      return 'failed';
    }
  };
}
