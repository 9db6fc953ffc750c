// The desktop window's transport: Electron IPC through the preload, which exposes `window.lanes`
// (an IpcBridge) and nothing else. Errors cross as values, not throws: Electron's invoke() would
// flatten a thrown error into "Error invoking remote method …", losing its code and field.
import { LanesError, type ErrorBody } from '../errors.js';
import type { LanesEvent } from '../events.js';
import type { RequestName } from '../requests.js';
import { openAtOnce, type EventSink, type Listening, type Transport } from './transport.js';

export type Result<T> = { ok: true; value: T } | { ok: false; error: ErrorBody };

/**
 * IPC channel names, the only ones main and preload use. On each, in order:
 * - `request`: invoke(name, input), answered with a Result;
 * - `subscribe`: preload → main, a SubscribeMessage;
 * - `start`: main → preload, (id, seq, reset): the feed of subscription `id` goes on after `seq`
 *   (see EventSink.start). Sent first, and again whenever the engine behind it restarted;
 * - `events`: main → preload, (id, events): a batch of that subscription's events, in order.
 */
export const IPC = {
  request: 'lanes:request',
  subscribe: 'lanes:subscribe',
  start: 'lanes:start',
  events: 'lanes:events',
} as const;

/** Preload → main on IPC.subscribe: follow the events after `since` (0: from now), or stop. */
export type SubscribeMessage = { id: string; since: number } | { id: string; stop: true };

/** What the preload exposes as `window.lanes`. */
export interface IpcBridge {
  request(name: RequestName, input: unknown): Promise<Result<unknown>>;
  /**
   * Events after `since` (0: from now), in batches, after `onStart` (see EventSink.start). The app
   * keeps the subscription across a restart of its engine: `onStart` then comes again, with
   * `reset`, and the events go on from the new engine.
   */
  listen(since: number, onStart: (seq: number, reset: boolean) => void, onEvents: (events: LanesEvent[]) => void): () => void;
}

export function ipcTransport(bridge: IpcBridge): Transport {
  return {
    async request(name, input) {
      const result = await bridge.request(name, input);
      if (!result.ok) throw LanesError.from(result.error, 'the app answered with an error it could not describe');
      return result.value;
    },
    listen(since: number, sink: EventSink): Listening {
      // IPC keeps the order of messages from one page: once the subscription is sent, any request
      // sent after it is answered after main has subscribed, so the feed counts as open at once.
      const stop = bridge.listen(
        since,
        (seq, reset) => sink.start(seq, reset),
        (events) => {
          for (const event of events) sink.event(event);
        },
      );
      return openAtOnce(stop);
    },
  };
}
