// Input is read strictly, and every answer refuses to be framed: invalid UTF-8 anywhere in a
// request is a 400 naming the field (never a U+FFFD stored in its place), a query parameter a
// route does not take is a 400 as an unknown body field is, a request without Host gets the same
// JSON 403 as a foreign one, and X-Frame-Options: DENY is on every response.
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { hostedApiForAll, openRawStream, raw } from '../support/http.js';

/** A request as bytes on the wire: what node:http would never send (no Host, raw bytes). */
function wire(port: number, head: string, body: Buffer = Buffer.alloc(0)): Promise<{ status: number; headers: string; json: unknown }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [headers = '', rest = ''] = text.split('\r\n\r\n');
      let json: unknown;
      try {
        json = JSON.parse(rest);
      } catch {
        json = undefined;
      }
      resolve({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(headers)?.[1] ?? 0), headers, json });
    });
    socket.end(Buffer.concat([Buffer.from(`${head}\r\nConnection: close\r\nContent-Length: ${body.length}\r\n\r\n`, 'latin1'), body]));
  });
}

describe('strict input', () => {
  const h = hostedApiForAll();

  const total = async () => (await h.client.call('listJobs', {})).total;
  const auth = () => `Authorization: Bearer ${h.host.token}\r\nHost: 127.0.0.1:${h.host.port}`;
  const post = (path: string, body: Buffer) => wire(h.host.port, `POST ${path} HTTP/1.1\r\n${auth()}\r\nContent-Type: application/json`, body);
  const fieldOf = (json: unknown) => (json as { error?: { field?: string } }).error?.field;

  it('invalid UTF-8 in a body is a 400 naming the field, and nothing is stored', async () => {
    const before = await total();
    const cases: [Buffer, string | undefined][] = [
      [Buffer.concat([Buffer.from('{"argv":["echo","a'), Buffer.from([0xff, 0xfe]), Buffer.from('b"]}')]), 'argv.1'],
      [Buffer.concat([Buffer.from('{"argv":["true"],"env":{"A":"'), Buffer.from([0xc3]), Buffer.from('"}}')]), 'env.A'],
      [Buffer.concat([Buffer.from('{"argv":["true"],"env":{"K'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('":"v"}}')]), 'env'],
      [Buffer.concat([Buffer.from('{"shell":"echo '), Buffer.from([0x80]), Buffer.from('"}')]), 'shell'],
    ];
    for (const [body, field] of cases) {
      const res = await post('/api/jobs', body);
      expect(res.status, body.toString('latin1')).toBe(400);
      expect(fieldOf(res.json), JSON.stringify(res.json)).toBe(field);
    }
    const batch = await post('/api/jobs/batch', Buffer.concat([Buffer.from('{"jobs":[{"argv":["true"]},{"argv":["x'), Buffer.from([0xf8]), Buffer.from('"]}]}')]));
    expect(fieldOf(batch.json)).toBe('jobs.1.argv.0');
    expect(await total()).toBe(before);
    // A real U+FFFD, sent as valid UTF-8, is text like any other.
    const ok = await h.call.post('/api/jobs', { argv: ['echo', '\uFFFD'] });
    expect(ok.status).toBe(200);
  });

  it('invalid UTF-8 in a query value or a path segment is a 400 naming it', async () => {
    const query = await h.call.get('/api/jobs?lane=%FF');
    expect(query.status).toBe(400);
    expect(fieldOf(query.json)).toBe('lane');
    const path = await h.call.get('/api/jobs/%C3');
    expect(path.status).toBe(400);
    expect(fieldOf(path.json)).toBe('id');
    const rawBytes = await wire(h.host.port, `GET /api/jobs?lane=\xff HTTP/1.1\r\n${auth()}`);
    expect(rawBytes.status).toBe(400);
  });

  it('an unknown query parameter is a 400 naming it, on every route', async () => {
    for (const path of ['/api/status?__proto__=x', '/api/status?verbose=1', '/api/jobs?lane=worker&colour=red', '/api/window?x=1', '/api/hello?nonce=0123456789abcdef&y=2']) {
      const res = await h.call.get(path);
      expect(res.status, path).toBe(400);
      expect(fieldOf(res.json), path).toBe([...new URL(path, 'http://x').searchParams.keys()].at(-1));
    }
    const events = await raw(h.host.port, { path: `/api/events?token=${h.host.token}&since=0&follow=yes` });
    expect(events.status).toBe(400);
    expect(fieldOf(events.json)).toBe('follow');
    const posted = await h.call.post('/api/jobs?lane=ml', { argv: ['true'] });
    expect(posted.status).toBe(400);
    expect(fieldOf(posted.json)).toBe('lane');
    // What a route does take still works.
    expect((await h.call.get('/api/jobs?lane=worker&limit=5')).status).toBe(200);
  });

  it('a request without Host gets the JSON 403', async () => {
    const res = await wire(h.host.port, `GET /api/status HTTP/1.1\r\nAuthorization: Bearer ${h.host.token}`);
    expect(res.status).toBe(403);
    expect(res.json).toMatchObject({ error: { code: 'forbidden', message: expect.stringMatching(/without Host/) } });
  });

  it('X-Frame-Options: DENY on every response', async () => {
    const answers = [await h.call.get('/api/status'), await h.call.get('/'), await h.call.get('/api/nowhere'), await raw(h.host.port, { path: '/api/status' }), await h.call.get('/api/status?x=1')];
    for (const res of answers) expect(res.headers['x-frame-options'], String(res.status)).toBe('DENY');
    const stream = await openRawStream(h.host.port, { headers: { Authorization: `Bearer ${h.host.token}` } });
    expect(stream.response.headers['x-frame-options']).toBe('DENY');
    stream.close();
  });
});
