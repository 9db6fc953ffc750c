// The event stream judges a client by how long it has not kept up, not by the size of one event:
// a client reading steadily gets through an event of many megabytes and the traffic after it; a
// client that stops reading is cut off once it has been behind for the stall limit, and loses
// nothing when it reconnects with its last id.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostedEngine } from '../../electron/api/host.js';
import { createApiServer } from '../../electron/api/server.js';
import { WindowAccess } from '../../electron/api/window-access.js';
import { tempDataDir } from '../support/daemon.js';
import { openRawStream, startHostedApi } from '../support/http.js';
import { within } from '../support/poll.js';

describe('a slow event-stream client', () => {
  const tmp = tempDataDir();
  let host: HostedEngine;
  let port: number;
  let server: ReturnType<typeof createApiServer>;
  const access = new WindowAccess();
  const auth = () => ({ Authorization: `Bearer ${access.token}` });
  /** Events of a kind no window acts on, so fabricated ones disturb nothing. */
  const emit = (name: string) => host.engine.events.emit('laneRemoved', { name });

  beforeAll(async () => {
    ({ host } = await startHostedApi(tmp.dir));
    // The same engine behind a second server whose stall limit is short enough for a test.
    server = createApiServer({ engine: host.engine, access, rendererDir: tmp.dir, stallLimitMs: 300 });
    port = await server.listen(0);
  });
  afterAll(async () => {
    await server?.close();
    await host?.close({ graceMs: 0 });
    tmp.remove();
  });

  it('keeps a client that reads steadily through a 20 MB event and the traffic after it', async () => {
    const stream = await openRawStream(port, { headers: auth() });
    await stream.next((m) => m.event === 'start');
    emit('x'.repeat(20 * 1024 * 1024));
    for (let i = 0; i < 500; i++) emit(`after-${i}`);
    const last = host.engine.events.lastSeq;
    await stream.next((m) => m.id === String(last));
    expect(stream.response.destroyed).toBe(false);
    const seqs = stream.events().map((e) => e.seq);
    expect(seqs.length).toBe(501);
    seqs.forEach((s, i) => expect(s).toBe(seqs[0]! + i));
    stream.close();
  });

  it('cuts off a client that stops reading, and its reconnect with the last id loses nothing', async () => {
    // Watched from the server's side: a client that reads nothing would not notice the close.
    const closed = new Promise<void>((done) => server.server.once('connection', (socket) => socket.once('close', () => done())));
    const stream = await openRawStream(port, { headers: auth() });
    const start = await stream.next((m) => m.event === 'start');
    stream.response.pause();
    // Enough to fill the socket's buffers, then steady traffic until the engine gives up on it.
    for (let i = 0; i < 40; i++) emit(`bulk-${i}-${'y'.repeat(512 * 1024)}`);
    const traffic = setInterval(() => emit('steady'), 20);
    await within(closed, 'the server closing the stalled stream').finally(() => clearInterval(traffic));
    stream.close();

    const seen = stream.events().map((e) => e.seq);
    const lastSeen = seen.at(-1) ?? Number(start.id);
    expect(host.engine.events.lastSeq).toBeGreaterThan(lastSeen);
    const resumed = await openRawStream(port, { headers: { ...auth(), 'Last-Event-ID': String(lastSeen) } });
    const newest = host.engine.events.lastSeq;
    await resumed.next((m) => m.id === String(newest));
    const replay = resumed.events().map((e) => e.seq);
    expect(replay[0]).toBe(lastSeen + 1);
    replay.forEach((s, i) => expect(s).toBe(lastSeen + 1 + i));
    resumed.close();
  });
});
