// What the desktop app's preload exposes to the window as `window.lanes`, and what the HTTP
// client offers too: one request call, one event subscription. Errors come back as values, not
// thrown across the process boundary, so the message the engine wrote is the message shown.
import type { LanesEvent } from './events.js';
import type { LanesErrorBody, RequestInput, RequestName, RequestOutput } from './requests.js';

export type Result<T> = { ok: true; value: T } | { ok: false; error: LanesErrorBody['error'] };

export interface LanesBridge {
  request<K extends RequestName>(name: K, input: RequestInput<K>): Promise<Result<RequestOutput<K>>>;
  /**
   * Live events after `sinceSeq` (0: from now). If the engine has already forgotten some of them,
   * `onReset` is called and the caller must reload its snapshot.
   */
  subscribe(sinceSeq: number, onEvent: (event: LanesEvent) => void, onReset: () => void): () => void;
}

/** IPC channel names, the only ones main and preload use. */
export const IPC = {
  request: 'lanes:request',
  subscribe: 'lanes:subscribe',
  event: 'lanes:event',
  reset: 'lanes:reset',
} as const;

/** The HTTP event stream: Server-Sent Events; resume with `?since=SEQ` or `Last-Event-ID`. */
export const EVENTS_PATH = '/api/events';
/** Sent instead of the missed events when they are no longer held. */
export const RESET_EVENT = 'reset';
