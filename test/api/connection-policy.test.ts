// Who keeps a place when a door's connections are all taken (connection-guard.ts): a table of
// what is held and which one a newcomer replaces; and, on a real server, that a stranger's short
// idle limit does not cut off a request that came while the engine was busy; and that a request
// whose headers or body never come whole is answered 408 and closed, by the guard's own timers.
import { createServer, request } from 'node:http';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { guardConnections, placeFor, type Place } from '../../electron/api/connection-guard.js';
import { answerUnparsed } from '../../electron/api/respond.js';

const p = (name: string, since: number, trusted: boolean, busy: boolean) => ({ name, since, trusted, busy });

const table: { what: string; held: (Place & { name: string })[]; closes: string | null }[] = [
  { what: 'the oldest stranger between requests', held: [p('a', 3, false, false), p('b', 1, false, false), p('c', 2, false, false)], closes: 'b' },
  { what: 'a stranger between requests before an older one mid-request', held: [p('busy', 1, false, true), p('idle', 5, false, false)], closes: 'idle' },
  { what: 'the oldest stranger mid-request when none idles', held: [p('x', 4, false, true), p('y', 2, false, true)], closes: 'y' },
  { what: 'never a trusted connection, idle or not', held: [p('t1', 1, true, false), p('t2', 2, true, true), p('s', 9, false, true)], closes: 's' },
  { what: 'nobody when every place is trusted: the newcomer is refused', held: [p('t1', 1, true, false), p('t2', 2, true, true)], closes: null },
  { what: 'nobody when nothing is held', held: [], closes: null },
];

describe('placeFor', () => {
  for (const row of table) {
    it(row.what, () => {
      expect(placeFor(row.held)?.name ?? null).toBe(row.closes);
    });
  }
});

describe('a stranger\'s idle limit', () => {
  it('does not close a connection whose request came while the engine was busy past the limit', async () => {
    const server = createServer((_req, res) => res.end('ok'));
    guardConnections(server, { limit: 8, strangerIdleMs: 100, firstRequestMs: 100, requestMs: 1000, keepAliveMs: 100 }, false);
    // The engine's event loop held up for longer than the limit just as the connection comes.
    server.on('connection', () => {
      const until = performance.now() + 400;
      while (performance.now() < until);
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const port = (server.address() as { port: number }).port;
    try {
      const answer = await new Promise<string>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path: '/', agent: false }, (res) => {
          let text = '';
          res.setEncoding('utf8').on('data', (c: string) => (text += c));
          res.on('end', () => resolve(text));
        });
        req.on('error', reject);
        req.end();
      });
      expect(answer).toBe('ok');
    } finally {
      await new Promise<void>((done) => server.close(() => done()));
    }
  });
});

describe('a request that comes too slowly', () => {
  /** The owner's door (no stranger's idle limit), with the engine's answer to what Node's parser refuses. */
  async function door() {
    const server = createServer((req, res) => req.resume().on('end', () => res.end('ok')));
    server.on('clientError', answerUnparsed);
    guardConnections(server, { limit: 8, strangerIdleMs: 100, firstRequestMs: 150, requestMs: 150, keepAliveMs: 100 }, true);
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    return { server, port: (server.address() as { port: number }).port };
  }

  /** Everything the door says to a connection that sends `text` and then nothing, until it closes. */
  async function answerTo(port: number, text: string): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.write(text));
      let heard = '';
      socket.setEncoding('utf8').on('data', (c: string) => (heard += c));
      socket.on('close', () => resolve(heard)).on('error', reject);
    });
  }

  for (const [what, text] of [
    ['headers that never end', 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n'],
    ['a body that never comes whole', 'POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 10\r\n\r\nab'],
    ['a second request on a kept-alive connection that never ends', 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET / HTTP/1.1\r\nHost: 1'],
  ] as const) {
    it(`is answered 408 and closed: ${what}`, async () => {
      const { server, port } = await door();
      try {
        const heard = await answerTo(port, text);
        expect(heard).toMatch(/HTTP\/1\.1 408 Request Timeout[^]*"the request did not arrive in time"/);
      } finally {
        await new Promise<void>((done) => server.close(() => done()));
      }
    });
  }
});
