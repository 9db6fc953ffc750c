// Following the engine's event stream from a terminal: fetch streaming with the token in a
// header (Node has no EventSource, and the header keeps the token out of URLs), reconnecting
// with the last seq seen so nothing is missed across a dropped connection.
import type { LanesEvent } from '../../shared/events.js';
import { FINISHED_STATES, type Job } from '../../shared/model.js';
import { EVENTS_PATH, RESET_EVENT } from '../../shared/bridge.js';
import { locateEngine, type Connection, type LanesHttpClient } from './client.js';
import { CliError, NoEngine } from './errors.js';

export interface EventHandlers {
  /**
   * The stream is open (first time, after a reconnect, or after a reset): events from here on
   * will arrive. Commands re-read whatever they watch here, so a gap can never hide a change.
   */
  onOpen(): Promise<void> | void;
  onEvent(event: LanesEvent): void;
}

interface Frame {
  event: string;
  data: string;
}

/** Splits an SSE byte stream into frames; comments and `retry:` lines are dropped. */
async function* frames(body: ReadableStream<Uint8Array>): AsyncGenerator<Frame> {
  const decoder = new TextDecoder();
  let buffer = '';
  let event = 'message';
  let data: string[] = [];
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let newline: number;
    while ((newline = buffer.search(/\r?\n/)) >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(buffer[newline] === '\r' ? newline + 2 : newline + 1);
      if (line === '') {
        if (data.length > 0) yield { event, data: data.join('\n') };
        event = 'message';
        data = [];
      } else if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    }
  }
}

/** One connection: resolves when the server ends the stream, rejects if it cannot connect. */
async function streamOnce(conn: Connection, since: number, handlers: EventHandlers, signal: AbortSignal, seen: (seq: number) => void): Promise<void> {
  const res = await fetch(`${conn.base}${EVENTS_PATH}?since=${since}`, {
    headers: { Authorization: `Bearer ${conn.token}`, Accept: 'text/event-stream' },
    signal,
  });
  if (!res.ok || !res.body) throw new CliError(`the engine refused the event stream (HTTP ${res.status})`);
  // The server subscribed before answering, so from here no event can slip past us.
  await handlers.onOpen();
  for await (const frame of frames(res.body)) {
    if (frame.event === RESET_EVENT) {
      seen((JSON.parse(frame.data) as { seq: number }).seq);
      await handlers.onOpen();
      continue;
    }
    const event = JSON.parse(frame.data) as LanesEvent;
    seen(event.seq);
    handlers.onEvent(event);
  }
}

/**
 * Follows events until `signal` aborts. A dropped stream is resumed after the last seq; if the
 * engine itself restarted (a new pid or start time), the old seqs mean nothing and the stream
 * starts afresh. Gives up with NoEngine when no engine comes back within `patienceMs`.
 */
export async function watchEvents(dataDir: string, handlers: EventHandlers, signal: AbortSignal, patienceMs = 30_000): Promise<void> {
  let lastSeq = 0;
  let run: string | null = null;
  let lostAt: number | null = null;
  while (!signal.aborted) {
    try {
      const conn = locateEngine(dataDir);
      const thisRun = `${conn.info.pid}@${conn.info.startedAt}`;
      if (run !== null && run !== thisRun) lastSeq = 0;
      run = thisRun;
      await streamOnce(conn, lastSeq, handlers, signal, (seq) => {
        lastSeq = seq;
        lostAt = null;
      });
    } catch (err) {
      if (signal.aborted) return;
      if (err instanceof CliError && !(err instanceof NoEngine)) throw err;
      if (lostAt === null) {
        lostAt = Date.now();
        // Said once, so a terminal that seems to hang explains itself.
        process.stderr.write(`lanes: lost the engine; waiting up to ${Math.round(patienceMs / 1000)}s for it to come back…\n`);
      }
      if (Date.now() - lostAt > patienceMs) throw err instanceof NoEngine ? err : new NoEngine(dataDir, 'the event stream ended');
    }
    if (signal.aborted) return;
    // A short pause between attempts: the engine may be restarting and need a moment.
    await new Promise((done) => setTimeout(done, 250));
  }
}

/**
 * Waits for jobs to finish, for `lanes wait` and `lanes cancel` (a running job takes a moment to
 * stop). No polling: each job is read once when the stream opens (and again after a reconnect),
 * then only events move it. Resolves with each job's first finished record, in the order of
 * `ids`: a later retry by someone else starts a run this call did not ask about.
 */
export async function awaitFinished(client: LanesHttpClient, ids: number[], onFinished: (job: Job) => void = () => {}): Promise<Job[]> {
  const wanted = [...new Set(ids)];
  const finished = new Map<number, Job>();
  const stop = new AbortController();
  const record = (job: Job) => {
    if (!wanted.includes(job.id) || finished.has(job.id) || !FINISHED_STATES.includes(job.state)) return;
    finished.set(job.id, job);
    onFinished(job);
    if (finished.size === wanted.length) stop.abort();
  };
  await watchEvents(
    client.connection.dataDir,
    {
      // On every (re)connect, read the jobs still awaited: one may have finished in a gap.
      onOpen: async () => {
        for (const id of wanted.filter((id) => !finished.has(id))) record(await client.call('job', { id }));
      },
      onEvent: (event) => {
        if (event.type === 'job') record(event.data);
      },
    },
    stop.signal,
  );
  return wanted.map((id) => finished.get(id) as Job);
}
