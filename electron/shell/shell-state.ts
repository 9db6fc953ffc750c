// The little the shell keeps about itself: the engine's latest status, whether it failed to start,
// whether we are quitting, and the start-at-login setting. The tray, the notifications and the
// smoke-test hooks all read it; nothing else holds a copy.
import type { Status } from '../../shared/model.js';

/** What the shell knows besides the engine's status. */
export interface ShellState {
  /** null while the engine is starting or when it failed. */
  status: Status | null;
  /** Why the engine is not running, in words. */
  error: string | null;
  /** Quitting: finishing running jobs before the workers stop. */
  stopping: boolean;
  startAtLogin: boolean;
  /** Whether this platform can start the app at login at all. */
  startAtLoginSupported: boolean;
  /** Whether to offer "Install command line tool…": no `lanes` on PATH, and this app can put one there. */
  installCli: boolean;
}

export interface ShellStore {
  get(): ShellState;
  set(change: Partial<ShellState>): void;
  /** Called after every change; returns an unsubscribe function. */
  subscribe(listener: (state: ShellState) => void): () => void;
}

export function createShellStore(initial: ShellState): ShellStore {
  let state = initial;
  const listeners = new Set<(state: ShellState) => void>();
  return {
    get: () => state,
    set(change) {
      state = { ...state, ...change };
      for (const listener of listeners) listener(state);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
