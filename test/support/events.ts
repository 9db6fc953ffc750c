// Recording the engine's events in a test, through the one client: every event from the moment
// the recorder starts, and a way to wait for one (already seen or still to come).
import type { LanesClient } from '../../shared/client/client.js';
import type { LanesEvent } from '../../shared/events.js';

export interface EventRecorder {
  readonly events: LanesEvent[];
  /** Resolves with the first recorded event `match` accepts, seen already or still to come. */
  next<T extends LanesEvent>(match: (e: LanesEvent) => e is T, timeoutMs?: number): Promise<T>;
  next(match: (e: LanesEvent) => boolean, timeoutMs?: number): Promise<LanesEvent>;
  close(): void;
}

/** Resolves once the feed is open, so nothing that happens after it is missed. */
export function recordEvents(client: LanesClient): Promise<EventRecorder> {
  const events: LanesEvent[] = [];
  const waiters = new Set<(e: LanesEvent) => void>();
  return new Promise((ready) => {
    let stop = () => {};
    const recorder: EventRecorder = {
      events,
      next(match: (e: LanesEvent) => boolean, timeoutMs = 30_000) {
        const seen = events.find(match);
        if (seen) return Promise.resolve(seen) as never;
        return new Promise((resolve, reject) => {
          const timer = setTimeout(() => (waiters.delete(check), reject(new Error(`no matching event within ${timeoutMs} ms`))), timeoutMs);
          const check = (e: LanesEvent) => {
            if (!match(e)) return;
            clearTimeout(timer);
            waiters.delete(check);
            resolve(e);
          };
          waiters.add(check);
        }) as never;
      },
      close: () => stop(),
    };
    stop = client.follow(0, {
      open: () => ready(recorder),
      reset: () => {},
      event: (e) => {
        events.push(e);
        for (const w of [...waiters]) w(e);
      },
    });
  });
}
