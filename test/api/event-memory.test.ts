// All event-stream clients together hold at most one bound of unsent bytes in the engine: 40
// clients that never read, through a burst many times the bound, leave the engine holding no more
// than the bound (plus one event per client, the slack of looking once per event), the ones
// furthest behind are cut, and a cut client that reconnects with its last id resumes from there.
// It bounds bytes, not milliseconds: nothing here is timed.
import { createServer, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventStreams, resumePoint } from '../../electron/api/event-stream.js';
import { EventHub } from '../../electron/engine/event-hub.js';
import { openRawStream } from '../support/http.js';
import { waitFor } from '../support/poll.js';

const BOUND = 1024 * 1024;
const CLIENTS = 40;
const FRAME = 2_000;

describe('event streams share one memory bound', () => {
  const hub = new EventHub(Date.now() * 1000);
  const streams = new EventStreams(hub, 60_000, 3_600_000, BOUND);
  let server: Server;
  let port: number;
  const sockets: Socket[] = [];
  /** Streams the engine ended: each response says so as it closes (the clients themselves never read, so never hear it). */
  let cut = 0;

  beforeAll(async () => {
    server = createServer((req, res) => {
      res.once('close', () => cut++);
      streams.serve(req, res, resumePoint(req, new Map(new URL(req.url ?? '/', 'http://x').searchParams)));
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    port = (server.address() as { port: number }).port;
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    streams.closeAll();
    await new Promise((done) => server.close(done));
  });

  /** A client that asks for the stream and then never reads a byte of it. */
  const silentClient = () =>
    new Promise<void>((done, fail) => {
      const s = connect(port, '127.0.0.1', () => {
        s.write('GET /api/events HTTP/1.1\r\nHost: x\r\n\r\n');
        s.pause();
        sockets.push(s);
        done();
      });
      s.on('error', fail);
    });

  it('holds no more than the bound for 40 clients that never read, cutting the furthest behind', async () => {
    for (let i = 0; i < CLIENTS; i++) await silentClient();
    await expect.poll(() => streams.count, { timeout: 10_000 }).toBe(CLIENTS);
    // Per client, many times what the kernel's socket buffers take; all together, hundreds of bounds.
    const body = 'z'.repeat(FRAME);
    let most = 0;
    for (let i = 0; i < 20_000; i++) {
      hub.emit('laneRemoved', { name: `${i}-${body}` });
      if (i % 50 === 0) {
        most = Math.max(most, streams.bufferedBytes);
        // Let the sockets take what they will, as a busy engine's event loop does between events.
        await new Promise((done) => setImmediate(done));
      }
    }
    most = Math.max(most, streams.bufferedBytes);
    expect(most).toBeLessThanOrEqual(BOUND + CLIENTS * (FRAME + 200));
    expect(most).toBeGreaterThan(0);
    // Without the bound they would hold 20,000 × 2 kB each: 40 × 40 MB. With it, the engine ends
    // the streams furthest behind, and each such stream closes; every client is
    // either still served or was cut. (How many: a figure of the bench's `unread` step.)
    await waitFor(() => cut > 0, 'a client cut for the bound');
    expect(streams.count + cut).toBe(CLIENTS);
  });

  it('lets a cut client resume from its last event id', async () => {
    const from = hub.lastSeq - 100;
    const resumed = await openRawStream(port, { headers: { 'Last-Event-ID': String(from) } });
    const first = await resumed.next((m) => m.event === 'start' || m.event === 'reset');
    expect(first.event).toBe('start');
    await resumed.next((m) => m.id === String(hub.lastSeq));
    const seqs = resumed.events().map((e) => e.seq);
    expect(seqs[0]).toBe(from + 1);
    expect(seqs).toHaveLength(100);
    resumed.close();
  });
});
