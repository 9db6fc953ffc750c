// The live event stream: a client that drops and reconnects with its last seq receives every
// event it missed, in order, then the live ones; a resume point the engine cannot honour gets
// `reset` instead. Seqs are the engine's own, numbered from its start time × 1000.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostedEngine } from '../../electron/api/host.js';
import { createApiServer } from '../../electron/api/server.js';
import { WindowAccess } from '../../electron/api/window-access.js';
import type { SseMessage } from '../../shared/client/sse.js';
import { describeSpec } from '../../shared/format.js';
import type { LanesEvent } from '../../shared/events.js';
import type { Job } from '../../shared/model.js';
import { openRawStream, startHostedApi, type api, type RawStream } from '../support/http.js';
import { nextEvent } from '../support/engine.js';
import { waitFor } from '../support/poll.js';
import { tempDataDir } from '../support/daemon.js';

type SseFrame = SseMessage;

describe('event stream', () => {
  const tmp = tempDataDir();
  let host: HostedEngine;
  let call: ReturnType<typeof api>;
  const auth = () => ({ Authorization: `Bearer ${host.token}` });
  /** Where this run's seqs start. */
  const base = () => host.engine.startedAt * 1000;

  beforeAll(async () => ({ host, call } = await startHostedApi(tmp.dir)));
  afterAll(async () => {
    await host?.close({ graceMs: 0 });
    tmp.remove();
  });

  const jobFinished = (id: number) => (f: SseFrame) => {
    if (f.event !== 'job') return false;
    const job = (JSON.parse(f.data) as { data: Job }).data;
    return job.id === id && job.state === 'succeeded';
  };

  /** Adds a job and waits, on the engine's own hub, until it has finished. */
  async function runJob(text: string): Promise<number> {
    const finished = nextEvent(host.engine, (e) => e.type === 'job' && e.data.command === describeSpec({ kind: 'argv', argv: ['echo', text] }) && e.data.state === 'succeeded');
    const { id } = (await call.post('/api/jobs', { argv: ['echo', text] })).json as { id: number };
    await finished;
    return id;
  }

  async function waitForCount(stream: RawStream, n: number): Promise<LanesEvent[]> {
    let count = 0;
    await stream.next((f) => f.event !== 'reset' && f.event !== 'start' && ++count >= n);
    return stream.events().slice(0, n);
  }

  it('starts by naming where it starts, then sends each event with its seq as the id and its type as the event name', async () => {
    const now = host.engine.events.lastSeq;
    const stream = await openRawStream(host.port, { headers: auth() });
    // First where "now" is: a client that drops before any event still knows where it was.
    const start = await stream.next((f) => f.event === 'start');
    expect(stream.messages[0]).toBe(start);
    expect(JSON.parse(start.data)).toEqual({ seq: now });
    expect(start.id).toBe(String(now));
    expect(now).toBeGreaterThanOrEqual(base());
    const id = await runJob('first');
    const frame = await stream.next(jobFinished(id));
    const event = JSON.parse(frame.data) as LanesEvent;
    expect(frame.id).toBe(String(event.seq));
    expect(frame.event).toBe(event.type);
    expect(event.data).toMatchObject({ id, state: 'succeeded' });
    stream.close();
  });

  for (const via of ['?since=', 'Last-Event-ID'] as const) {
    it(`resumes after a disconnect with ${via}: every missed event, in order, then live ones`, async () => {
      const first = await openRawStream(host.port, { headers: auth() });
      const a = await runJob(`before-${via}`);
      await first.next(jobFinished(a));
      const lastSeen = first.events().at(-1)?.seq as number;
      first.close();

      // While away: jobs run, a cap moves, workers start and stop.
      await runJob(`away-1-${via}`);
      await runJob(`away-2-${via}`);
      expect((await call.post('/api/lanes/worker/cap', { cap: 2 })).status).toBe(200);
      expect((await call.post('/api/lanes/worker/cap', { cap: 1 })).status).toBe(200);
      const missed = host.engine.events.since(lastSeen) as LanesEvent[];
      expect(missed.length).toBeGreaterThan(4);

      const resumed =
        via === '?since='
          ? await openRawStream(host.port, { path: `/api/events?since=${lastSeen}`, headers: auth() })
          : await openRawStream(host.port, { headers: { ...auth(), 'Last-Event-ID': String(lastSeen) } });
      const replay = await waitForCount(resumed, missed.length);
      expect(replay.map((e) => e.seq)).toEqual(missed.map((e) => e.seq));
      expect(replay).toEqual(missed);
      // Strictly consecutive: nothing skipped, nothing twice.
      replay.forEach((e, i) => expect(e.seq).toBe(lastSeen + 1 + i));

      const live = await runJob(`after-${via}`);
      await resumed.next(jobFinished(live));
      const seqs = resumed.events().map((e) => e.seq);
      expect(new Set(seqs).size).toBe(seqs.length);
      expect([...seqs].sort((x, y) => x - y)).toEqual(seqs);
      resumed.close();
    });
  }

  it('prefers Last-Event-ID over ?since= (EventSource keeps its first URL when it reconnects)', async () => {
    await runJob('prefer');
    const last = host.engine.events.lastSeq;
    const stream = await openRawStream(host.port, { path: '/api/events?since=1', headers: { ...auth(), 'Last-Event-ID': String(last - 1) } });
    const [event] = await waitForCount(stream, 1);
    expect(event?.seq).toBe(last);
    stream.close();
  });

  it('sends reset when the resume point is from an earlier run of the engine, or was never sent', async () => {
    const now = host.engine.events.lastSeq;
    const earlierRun = (host.engine.startedAt - 60_000) * 1000 + 5;
    for (const since of [earlierRun, now + 1000]) {
      const stream = await openRawStream(host.port, { path: `/api/events?since=${since}`, headers: auth() });
      const reset = await stream.next((f) => f.event === 'reset');
      expect(stream.messages[0]).toBe(reset);
      // The seq at the moment it was sent: the sizer may announce something between then and here.
      const { seq } = JSON.parse(reset.data) as { seq: number };
      expect(seq).toBeGreaterThanOrEqual(now);
      expect(seq).toBeLessThanOrEqual(host.engine.events.lastSeq);
      expect(reset.id).toBe(String(seq));
      stream.close();
    }
  });

  it('refuses a resume point that is not a sequence number, naming it', async () => {
    const res = await call.get('/api/events?since=yesterday');
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ error: { field: 'since' } });
  });

  it('keeps a quiet stream alive with comments', async () => {
    // Same engine, a second server with a fast heartbeat, so the test need not wait 15 s.
    const access = new WindowAccess();
    const quick = createApiServer({ engine: host.engine, access, rendererDir: tmp.dir, heartbeatMs: 30 });
    const port = await quick.listen(0);
    const stream = await openRawStream(port, { headers: { Authorization: `Bearer ${access.token}` } });
    try {
      const keepalives = () => stream.text().match(/^: keepalive\n/gm)?.length ?? 0;
      // More than one: a comment on a cadence, not one sent as the stream opened.
      await waitFor(() => keepalives() >= 2, 'two keepalive comments on a quiet stream', 10_000);
      expect(stream.response.statusCode).toBe(200);
      // Still open: the comments kept it alive, and they are comments, never messages.
      expect(stream.response.complete).toBe(false);
      expect(stream.messages.map((m) => m.event)).not.toContain('keepalive');
    } finally {
      stream.close();
      await quick.close();
    }
  });
});
