// Event-stream clients cannot run up the engine's memory: a client whose socket is full is not
// written to, and is sent on from the hub's ring once it drains. 40 clients that never read,
// through a burst many times what their sockets take, leave the engine holding about one socket
// buffer each; a slow client that reads again gets every event in order; one the ring has moved
// past is cut, and reconnecting with its last id it is told to reload (reset).
// It bounds bytes, not milliseconds: nothing here is timed.
import { createServer, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventStreams, resumePoint } from '../../electron/api/event-stream.js';
import { EventHub } from '../../electron/engine/event-hub.js';
import type { LanesEvent } from '../../shared/events.js';
import { openRawStream } from '../support/http.js';

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

  it('holds about one socket buffer for each of 40 clients that never read, cutting none the ring still serves', async () => {
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
    // Written to each until its socket took no more (Node's 16 KiB high-water mark), then one frame
    // past it at most: not the 20,000 × 2 kB = 40 MB each a backlog per client would be.
    expect(most).toBeLessThanOrEqual(CLIENTS * (16 * 1024 + FRAME + 200));
    expect(most).toBeGreaterThan(0);
    expect([streams.count, cut]).toEqual([CLIENTS, 0]);
  });

  /** A stream whose reader stops reading at once, so its socket fills; `resume()` reads it again. */
  const pausedStream = async (at: number) => {
    const stream = await openRawStream(at);
    stream.response.pause();
    return stream;
  };
  const contiguous = (events: LanesEvent[]) => events.every((e, i) => i === 0 || e.seq === events[i - 1]!.seq + 1);

  it('sends a slow client every event in order once it reads again', async () => {
    const stream = await pausedStream(port);
    await stream.next((m) => m.event === 'start');
    const first = hub.lastSeq + 1;
    const body = 'y'.repeat(FRAME);
    for (let i = 0; i < 5_000; i++) {
      hub.emit('laneRemoved', { name: `${i}-${body}` });
      if (i % 50 === 0) await new Promise((done) => setImmediate(done));
    }
    stream.response.resume();
    await stream.next((m) => m.id === String(hub.lastSeq), 60_000);
    const seqs = stream.events().map((e) => e.seq);
    expect([seqs[0], seqs.length, contiguous(stream.events())]).toEqual([first, 5_000, true]);
    stream.close();
  });

  it('cuts a client the ring has moved past once it drains, and tells it to reload when it comes back', async () => {
    const small = new EventHub(Date.now() * 1000 + 5e9, () => {}, 100);
    const few = new EventStreams(small, 60_000, 3_600_000, BOUND);
    const other = createServer((req, res) => few.serve(req, res, resumePoint(req, new Map(new URL(req.url ?? '/', 'http://x').searchParams))));
    await new Promise<void>((done) => other.listen(0, '127.0.0.1', done));
    const at = (other.address() as { port: number }).port;
    const stream = await pausedStream(at);
    await stream.next((m) => m.event === 'start');
    const body = 'x'.repeat(FRAME);
    for (let i = 0; i < 5_000; i++) {
      small.emit('laneRemoved', { name: `${i}-${body}` });
      if (i % 50 === 0) await new Promise((done) => setImmediate(done));
    }
    const ended = new Promise<void>((done) => stream.response.once('close', done));
    stream.response.resume();
    await ended;
    const got = stream.events();
    expect(got.length).toBeLessThan(5_000);
    expect(contiguous(got)).toBe(true);
    const last = got.at(-1)!.seq;
    const again = await openRawStream(at, { headers: { 'Last-Event-ID': String(last) } });
    expect((await again.next((m) => m.event === 'start' || m.event === 'reset')).event).toBe('reset');
    again.close();
    few.closeAll();
    await new Promise((done) => other.close(done));
  });

  it('lets a client resume from its last event id', async () => {
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
