// Reading the API's event stream in tests: a raw SSE connection whose frames can be awaited.
import { request, type ClientRequest, type IncomingMessage } from 'node:http';
import { startDaemon, type TestDaemon } from './daemon.js';
import type { LanesEvent } from '../../shared/events.js';

export interface SseFrame {
  id: string | null;
  event: string;
  data: string;
}

export interface TestStream {
  response: IncomingMessage;
  frames: SseFrame[];
  /** Everything received, comments included. */
  text(): string;
  /** Resolves with the first frame (already received or still to come) that `match` accepts. */
  next(match: (frame: SseFrame) => boolean): Promise<SseFrame>;
  /** The LanesEvents received so far, in order. */
  events(): LanesEvent[];
  close(): void;
}

export function openStream(port: number, options: { path?: string; headers?: Record<string, string> } = {}): Promise<TestStream> {
  return new Promise((resolve, reject) => {
    let req: ClientRequest | null = null;
    req = request({ host: '127.0.0.1', port, path: options.path ?? '/api/events', headers: options.headers ?? {} }, (response) => {
      const frames: SseFrame[] = [];
      const waiters: { match: (f: SseFrame) => boolean; found: (f: SseFrame) => void }[] = [];
      let buffer = '';
      let all = '';
      let current: SseFrame = { id: null, event: 'message', data: '' };
      let hasData = false;
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        buffer += chunk;
        all += chunk;
        let nl: number;
        while ((nl = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, nl);
          buffer = buffer.slice(nl + 1);
          if (line === '') {
            if (hasData) {
              frames.push(current);
              for (const w of [...waiters]) {
                if (w.match(current)) {
                  waiters.splice(waiters.indexOf(w), 1);
                  w.found(current);
                }
              }
            }
            current = { id: null, event: 'message', data: '' };
            hasData = false;
          } else if (line.startsWith('id: ')) current.id = line.slice(4);
          else if (line.startsWith('event: ')) current.event = line.slice(7);
          else if (line.startsWith('data: ')) {
            current.data += line.slice(6);
            hasData = true;
          }
        }
      });
      resolve({
        response,
        frames,
        text: () => all,
        next: (match) =>
          new Promise((found, fail) => {
            const hit = frames.find(match);
            if (hit) return found(hit);
            waiters.push({ match, found });
            response.on('close', () => fail(new Error('event stream closed before the awaited event')));
          }),
        events: () => frames.filter((f) => f.event !== 'reset').map((f) => JSON.parse(f.data) as LanesEvent),
        close: () => req?.destroy(),
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** A daemon and an authorised event stream on it, opened before anything happens. */
export async function startDaemonWithEvents(dataDir: string): Promise<{ daemon: TestDaemon; events: TestStream }> {
  const daemon = await startDaemon(dataDir);
  const events = await openStream(daemon.info.port, { headers: { Authorization: `Bearer ${daemon.token}` } });
  return { daemon, events };
}
