// The client's transport over the local HTTP API. What actually sends bytes is a small port
// (fetch in a browser, node:http in the CLI and tests), so the mapping of requests to routes, the
// reading of error bodies and the event stream's framing are written here once.
import { LanesError } from '../errors.js';
import { RESET_EVENT, START_EVENT, type LanesEvent } from '../events.js';
import type { RequestName } from '../requests.js';
import { httpTarget } from './http-target.js';
import { SseParser } from './sse.js';
import type { EventSink, Listening, Transport } from './transport.js';

/** The HTTP event stream: Server-Sent Events; resume with `?since=SEQ` or `Last-Event-ID`. */
export const EVENTS_PATH = '/api/events';
/** The window's address, with its token and a one-time code (for the engine's own user only). */
export const WINDOW_PATH = '/api/window';
/** A one-time code exchanged for the window's token (no credential needed: the code is one). */
export const REDEEM_PATH = '/api/redeem';
/** The engine proves it holds the window's token: `?nonce=N` → `{ proof }` (no credential needed). */
export const HELLO_PATH = '/api/hello';

/** What WINDOW_PATH answers. */
export interface WindowAddress {
  /** The window with its token in the fragment. */
  url: string;
  /** The window with a code good for one use within a minute, for handing to a browser. */
  onceUrl: string;
}

export interface HttpAnswer {
  status: number;
  text: string;
}

export interface HttpStream {
  status: number;
  /** Decoded text as it arrives; ends when the server closes the stream. */
  chunks: AsyncIterable<string>;
  /** The whole body, for a stream that was refused. */
  text(): Promise<string>;
}

/** What a transport needs from whoever sends bytes. Network failures reject with a LanesError. */
export interface HttpPort {
  send(method: string, path: string, headers: Record<string, string>, body: string | undefined): Promise<HttpAnswer>;
  stream(path: string, headers: Record<string, string>, signal: AbortSignal): Promise<HttpStream>;
}

function refusal(status: number, text: string): LanesError {
  let body: unknown = null;
  try {
    body = (JSON.parse(text) as { error?: unknown }).error;
  } catch {
    // Not JSON: said below.
  }
  return LanesError.from(body, `the engine answered HTTP ${status}`);
}

export function httpTransport(port: HttpPort, headers: () => Record<string, string> = () => ({})): Transport {
  return {
    async request(name: RequestName, input: unknown): Promise<unknown> {
      const target = httpTarget(name, input);
      const body = target.body === undefined ? undefined : JSON.stringify(target.body);
      const extra: Record<string, string> = body === undefined ? {} : { 'Content-Type': 'application/json' };
      const answer = await port.send(target.method, target.url, { ...headers(), ...extra }, body);
      if (answer.status < 200 || answer.status >= 300) throw refusal(answer.status, answer.text);
      try {
        return JSON.parse(answer.text) as unknown;
      } catch {
        throw new LanesError('internal', `the engine answered ${answer.status} with something other than JSON`);
      }
    },

    listen(since: number, sink: EventSink): Listening {
      const abort = new AbortController();
      let opened!: () => void;
      let refused!: (error: unknown) => void;
      const open = new Promise<void>((resolve, reject) => ((opened = resolve), (refused = reject)));
      const closed = (async () => {
        try {
          const path = since > 0 ? `${EVENTS_PATH}?since=${since}` : EVENTS_PATH;
          const res = await port.stream(path, { ...headers(), Accept: 'text/event-stream' }, abort.signal);
          if (res.status !== 200) throw refusal(res.status, await res.text());
          // The server subscribed before answering: from here no event can slip past.
          opened();
          const parser = new SseParser();
          for await (const chunk of res.chunks) {
            for (const message of parser.push(chunk)) {
              if (message.event === START_EVENT || message.event === RESET_EVENT) {
                sink.start((JSON.parse(message.data) as { seq: number }).seq, message.event === RESET_EVENT);
              } else sink.event(JSON.parse(message.data) as LanesEvent);
            }
          }
        } catch (error) {
          refused(error);
        }
      })();
      // A listener that never opened reports through `opened`; `closed` only says it is over.
      open.catch(() => undefined);
      return { opened: open, closed, close: () => abort.abort() };
    },
  };
}
