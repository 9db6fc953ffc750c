// The LanesBridge over the local HTTP API, for when the window is served by `lanes daemon`
// rather than loaded by the desktop app. Every route comes from the shared request table through
// shared/http.ts (the same mapping the server and the CLI use), so a request added there works
// here without touching this file.
import { EVENTS_PATH, RESET_EVENT, type LanesBridge, type Result } from '../../shared/bridge';
import type { LanesEvent } from '../../shared/events';
import { httpTarget } from '../../shared/http';
import type { LanesErrorBody, RequestInput, RequestName, RequestOutput } from '../../shared/requests';
import { SseParser, type SseMessage } from './sse';

export type LinkState = 'connecting' | 'connected' | 'reconnecting' | 'unauthorized';
type ErrorBody = LanesErrorBody['error'];

const RETRY_FIRST_MS = 400;
const RETRY_MAX_MS = 5_000;

export class HttpBridge implements LanesBridge {
  constructor(
    private readonly token: string | null,
    private readonly onLink: (state: LinkState) => void = () => {},
  ) {}

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    return this.token ? { ...extra, Authorization: `Bearer ${this.token}` } : extra;
  }

  async request<K extends RequestName>(name: K, input: RequestInput<K>): Promise<Result<RequestOutput<K>>> {
    const req = httpTarget(name, input);
    const body = req.body === undefined ? undefined : JSON.stringify(req.body);
    let res: Response;
    try {
      // Relative URL: the token only ever goes to the origin that served this page.
      res = await fetch(req.url, {
        method: req.method,
        headers: this.headers(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        body,
        cache: 'no-store',
      });
    } catch {
      return { ok: false, error: { code: 'internal', message: 'Cannot reach the Lanes engine. Is `lanes daemon` running?' } };
    }
    if (res.status === 401) this.onLink('unauthorized');
    const answer: unknown = await res.json().catch(() => null);
    if (res.ok) return { ok: true, value: answer as RequestOutput<K> };
    return { ok: false, error: errorFrom(answer, res.status) };
  }

  subscribe(sinceSeq: number, onEvent: (event: LanesEvent) => void, onReset: () => void): () => void {
    let lastSeq = sinceSeq;
    let stopped = false;
    let controller: AbortController | null = null;
    let connectedOnce = false;

    const deliver = (message: SseMessage): void => {
      if (message.event === RESET_EVENT) {
        // Resume from the engine's current position next time, not from what it forgot.
        const seq = Number(message.id);
        if (Number.isFinite(seq)) lastSeq = seq;
        onReset();
        return;
      }
      const event = eventFrom(message);
      if (!event) return;
      if (event.seq > 0) lastSeq = event.seq;
      onEvent(event);
    };

    const run = async (): Promise<void> => {
      let delay = RETRY_FIRST_MS;
      while (!stopped) {
        controller = new AbortController();
        let refused = false;
        try {
          const url = lastSeq > 0 ? `${EVENTS_PATH}?since=${lastSeq}` : EVENTS_PATH;
          const res = await fetch(url, {
            headers: this.headers({ Accept: 'text/event-stream' }),
            signal: controller.signal,
            cache: 'no-store',
          });
          if (res.status === 401) {
            refused = true;
            this.onLink('unauthorized');
            throw new Error('unauthorized');
          }
          if (!res.ok || !res.body) throw new Error(`events: HTTP ${res.status}`);
          this.onLink('connected');
          // With nothing to resume from, whatever happened while away is unknown: reload.
          if (connectedOnce && lastSeq === 0) onReset();
          connectedOnce = true;
          delay = RETRY_FIRST_MS;
          const parser = new SseParser();
          const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            for (const message of parser.push(value)) deliver(message);
          }
          throw new Error('events: stream ended');
        } catch {
          if (stopped) return;
          // A refused token stays the news (the engine is there; retrying slowly in case the
          // window gets a new one); anything else is a dropped connection.
          if (!refused) this.onLink(connectedOnce ? 'reconnecting' : 'connecting');
          await new Promise((resolve) => setTimeout(resolve, refused ? RETRY_MAX_MS : delay));
          delay = Math.min(delay * 2, RETRY_MAX_MS);
        }
      }
    };
    void run();
    return () => {
      stopped = true;
      controller?.abort();
    };
  }
}

function errorFrom(body: unknown, status: number): ErrorBody {
  const error = (body as Partial<LanesErrorBody> | null)?.error;
  if (error && typeof error.message === 'string') return error;
  if (status === 401) return { code: 'unauthorized', message: 'The engine did not accept this window’s token. Open it again with `lanes open`.' };
  return { code: 'internal', message: `The engine answered HTTP ${status}.` };
}

/** Accepts either a whole LanesEvent as data, or the payload alone with `id:` and `event:` fields. */
export function eventFrom(message: SseMessage): LanesEvent | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(message.data);
  } catch {
    return null;
  }
  const whole = parsed as Partial<LanesEvent> | null;
  if (whole && typeof whole === 'object' && typeof whole.type === 'string' && 'data' in whole && typeof whole.seq === 'number') {
    return whole as LanesEvent;
  }
  const seq = Number(message.id ?? 0);
  return { seq: Number.isFinite(seq) ? seq : 0, type: message.event, data: parsed } as LanesEvent;
}
