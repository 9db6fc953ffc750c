// What each tray menu action does. The menu itself is data (tray-menu.ts); this is the one place
// its actions touch the engine, the window, the login item and the quit sequence. The engine is
// reached through the shared client, like every other caller; what the tray then shows comes
// from the engine's events alone (engine-host.ts), never from an action's answer.
import type { LanesClient } from '../../shared/client/client.js';
import type { RequestInput } from '../../shared/requests.js';
import { tomorrowMorning } from '../../shared/span.js';
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
  /** Tell the person something worked that they cannot see otherwise (a notification). */
  tell: (title: string, body: string) => void;
  /** Puts `lanes` on PATH (cli-install-run.ts); resolves with what to tell the person. */
  installCli: () => Promise<string>;
  /** Whether the item is still worth offering, asked again after an install. */
  cliOffered: () => boolean;
  log: (line: string) => void;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** What to call a request that failed, for the log and the notification's title. */
type EngineAction = Extract<TrayAction, { type: 'setCap' | 'snoozeNudge' | 'pause' | 'resume' }>;
const failedTitle = (action: EngineAction): string => {
  switch (action.type) {
    case 'setCap':
      return `Could not set ${action.lane}'s cap`;
    case 'snoozeNudge':
      return `Could not snooze ${action.lane}'s suggestion`;
    case 'pause':
      return action.lane === undefined ? 'Could not pause' : `Could not pause ${action.lane}`;
    case 'resume':
      return action.lane === undefined ? 'Could not resume' : `Could not resume ${action.lane}`;
  }
};

/** The request a pause item makes; "until tomorrow" is reckoned as it is clicked, not when the menu was built. */
export function pauseInput(action: Extract<TrayAction, { type: 'pause' }>, now: number): RequestInput<'pause'> {
  const span = action.tomorrow ? { until: tomorrowMorning(now) } : action.forSeconds !== undefined ? { forSeconds: action.forSeconds } : {};
  return { ...span, ...(action.lane === undefined ? {} : { lane: action.lane }) };
}

export function trayActions(deps: TrayActionDeps): TrayDispatch {
  // Every engine action answers the same way: the engine announces the change as an event
  // (`lane`, `paused`), and that is what moves the tray, never this answer.
  const onEngine = async (action: EngineAction): Promise<ActionOutcome> => {
    const client = deps.client();
    if (!client) return 'failed';
    try {
      if (action.type === 'setCap') await client.call('setCap', { lane: action.lane, cap: action.cap });
      else if (action.type === 'snoozeNudge') await client.call('snoozeNudge', { lane: action.lane, forSeconds: action.forSeconds });
      else if (action.type === 'pause') await client.call('pause', pauseInput(action, Date.now()));
      else await client.call('resume', action.lane === undefined ? {} : { lane: action.lane });
      return 'done';
    } catch (error) {
      deps.log(`tray: ${action.type} ${JSON.stringify(action)} failed: ${messageOf(error)}`);
      deps.warn(failedTitle(action), messageOf(error));
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

  const installCli = async (): Promise<ActionOutcome> => {
    try {
      deps.tell('Command line tool installed', await deps.installCli());
      return 'done';
    } catch (error) {
      deps.log(`tray: installCli failed: ${messageOf(error)}`);
      deps.warn('Could not install the command line tool', messageOf(error));
      return 'failed';
    } finally {
      deps.store.set({ installCli: deps.cliOffered() });
    }
  };

  // Actions that cannot fail here: they hand over to the window, the engine host or the quit sequence.
  const handOver: Record<Exclude<TrayAction['type'], EngineAction['type'] | 'toggleStartAtLogin' | 'installCli'>, () => void> = {
    open: deps.openWindow,
    retry: deps.retry,
    quit: deps.quit,
    quitNow: deps.quitNow,
  };

  const run = async (action: TrayAction): Promise<ActionOutcome> => {
    if (action.type === 'toggleStartAtLogin') return toggleStartAtLogin(action.on);
    if (action.type === 'installCli') return installCli();
    if (action.type === 'open' || action.type === 'retry' || action.type === 'quit' || action.type === 'quitNow') {
      handOver[action.type]();
      return 'done';
    }
    return onEngine(action);
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
