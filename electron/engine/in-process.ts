// The client's transport for a caller in the engine's own process (the tray, tests): requests
// are plain calls and the feed is the event hub itself, resumed the same way as over HTTP or IPC.
import { LanesError } from '../../shared/errors.js';
import { openAtOnce, type Transport } from '../../shared/client/transport.js';
import type { Engine } from './engine.js';

export function inProcessTransport(engine: Engine): Transport {
  return {
    async request(name, input) {
      try {
        return await engine.request(name, input);
      } catch (error) {
        throw error instanceof LanesError ? error : new LanesError('internal', error instanceof Error ? error.message : String(error));
      }
    },
    listen: (since, sink) => openAtOnce(engine.events.follow(since, (event) => sink.event(event), (seq, reset) => sink.start(seq, reset))),
  };
}
