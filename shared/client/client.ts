// The one client of the engine, whatever carries it. Requests are called by name from the
// request table, answers are typed by it, and failures are LanesErrors. Events are followed with
// one resume scheme for every transport: remember the last seq seen, reconnect with it, and on
// `reset` reload. A snapshot (status, a job page) carries the seq it reflects, so whoever holds
// one applies only the events after it.
import { LanesError } from '../errors.js';
import type { LanesEvent } from '../events.js';
import type { RequestInput, RequestName, RequestOutput } from '../requests.js';
import type { Transport } from './transport.js';

/** `gone`: the engine this client knew restarted, and this client cannot follow it (it stops). */
export type LinkState = 'connecting' | 'connected' | 'reconnecting' | 'unauthorized' | 'gone';

export interface FollowHandlers {
  /** Each event after the resume point, in order, once. */
  event(event: LanesEvent): void;
  /** Events were missed and cannot be replayed: reload whatever was built from them. */
  reset(): void;
  /** The feed is open (first time and after each reconnect); a snapshot read now misses nothing. */
  open?(): void | Promise<void>;
  link?(state: LinkState): void;
  /** Following gave up (see `patienceMs`); nothing more will be called. */
  lost?(error: LanesError): void;
}

export interface FollowOptions {
  /** Give up once the engine has been out of reach this long; default: never. */
  patienceMs?: number;
  retryFirstMs?: number;
  retryMaxMs?: number;
}

const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

export class LanesClient {
  constructor(readonly transport: Transport) {}

  async call<K extends RequestName>(name: K, input: RequestInput<K>): Promise<RequestOutput<K>> {
    return (await this.transport.request(name, input)) as RequestOutput<K>;
  }

  /** Follows the engine's events after `since` (0: from now) until the returned function is called. */
  follow(since: number, handlers: FollowHandlers, options: FollowOptions = {}): () => void {
    const first = options.retryFirstMs ?? 250;
    const most = options.retryMaxMs ?? 5_000;
    let last = since;
    let stopped = false;
    let current: { close(): void } | null = null;
    const sink = {
      start: (seq: number, reset: boolean) => {
        // "From now" becomes a real position, so a reconnect resumes instead of starting afresh.
        if (reset || last === 0) last = seq;
        if (reset) handlers.reset();
      },
      event: (event: LanesEvent) => {
        // A replay and the live feed never overlap, but a resumed stream may repeat its last event.
        if (event.seq <= last) return;
        last = event.seq;
        handlers.event(event);
      },
    };

    const run = async () => {
      let everOpen = false;
      let lostAt: number | null = null;
      let delay = first;
      while (!stopped) {
        let refused = false;
        try {
          const listening = this.transport.listen(last, sink);
          current = listening;
          await listening.opened;
          if (stopped) return listening.close();
          everOpen = true;
          lostAt = null;
          delay = first;
          handlers.link?.('connected');
          await handlers.open?.();
          await listening.closed;
        } catch (error) {
          if (error instanceof LanesError && error.code === 'gone') {
            stopped = true;
            handlers.link?.('gone');
            handlers.lost?.(error);
            return;
          }
          refused = error instanceof LanesError && error.code === 'unauthorized';
          if (refused) handlers.link?.('unauthorized');
          lostAt ??= Date.now();
          if (options.patienceMs !== undefined && Date.now() - lostAt > options.patienceMs) {
            stopped = true;
            handlers.lost?.(error instanceof LanesError ? error : new LanesError('unavailable', String(error)));
            return;
          }
        }
        if (stopped) return;
        if (!refused) handlers.link?.(everOpen ? 'reconnecting' : 'connecting');
        await sleep(refused ? most : delay);
        delay = Math.min(delay * 2, most);
      }
    };
    void run();
    return () => {
      stopped = true;
      current?.close();
    };
  }
}
