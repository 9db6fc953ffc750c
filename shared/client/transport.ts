// What carries requests and events between a client and the engine: HTTP (the CLI, a browser
// window, tests), Electron IPC (the desktop window) or a direct call (the tray, beside the engine
// in one process). The client (client.ts) is written once against this interface; each transport
// only moves bytes and turns failures into LanesError.
import type { LanesEvent } from '../events.js';
import type { RequestName } from '../requests.js';

export interface EventSink {
  /**
   * First: the feed goes on after `seq`. `reset` says the events after the asked-for resume point
   * are no longer held (or that point is from an earlier run of the engine), so whatever was built
   * from events must be reloaded. A feed that outlives its engine (IPC in the desktop app, whose
   * engine can restart) says so again with a reset.
   */
  start(seq: number, reset: boolean): void;
  /** Each event after that, in order. */
  event(event: LanesEvent): void;
}

export interface Listening {
  /** Resolves once the feed is open: from here on no event after the resume point can be missed. */
  opened: Promise<void>;
  /** Resolves when the feed ends, for whatever reason. */
  closed: Promise<void>;
  close(): void;
}

export interface Transport {
  /** Resolves with the engine's answer; rejects with a LanesError. */
  request(name: RequestName, input: unknown): Promise<unknown>;
  /** Opens the live feed after `since` (0: from now). `opened` rejects with a LanesError. */
  listen(since: number, sink: EventSink): Listening;
}

/** A feed that is open at once (IPC, in-process) and ends when `close` is called. */
export function openAtOnce(stop: () => void): Listening {
  let end!: () => void;
  const closed = new Promise<void>((resolve) => (end = resolve));
  return {
    opened: Promise.resolve(),
    closed,
    close: () => {
      stop();
      end();
    },
  };
}
