// The CLI's HTTP port writes its one request over a plain socket and reads the answer itself, so
// it is tested against a real node:http server (the kind the engine runs) on a Unix socket and on
// loopback TCP: Content-Length and chunked answers, UTF-8 split across chunks, the Host header the
// API checks, a request body, and a server that hangs up mid-answer or is not there at all.
import { createServer, type Server, type ServerResponse, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeHttpPort, parseAnswer, type Endpoint } from '../../electron/cli/node-http.js';
import { LanesError } from '../../shared/errors.js';
import { tempDataDir } from '../support/daemon.js';

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function serve(handler: (req: IncomingMessage, res: ServerResponse, body: string) => void, where: 'socket' | 'tcp' = 'socket'): Promise<Endpoint> {
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (c: string) => (body += c));
    req.on('end', () => handler(req, res, body));
  });
  cleanups.push(() => new Promise<void>((done) => server.close(() => done())));
  if (where === 'tcp') {
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    return { host: '127.0.0.1', port: (server.address() as { port: number }).port };
  }
  const dir = tempDataDir('lanes-http-');
  cleanups.push(dir.remove);
  const socketPath = join(dir.dir, 'engine.sock');
  await new Promise<void>((done) => server.listen(socketPath, done));
  return { socketPath };
}

describe('the CLI’s HTTP port', () => {
  it('keeps its connection for the next request, and replaces one the server has closed', async () => {
    let connections = 0;
    let server: Server | undefined;
    const seen = new Set<unknown>();
    const counting = await serve((req, res) => {
      if (!seen.has(req.socket)) {
        seen.add(req.socket);
        connections++;
      }
      server ??= (req.socket as unknown as { server: Server }).server;
      res.end(req.url);
    });
    const counted = nodeHttpPort(() => counting);
    expect((await counted.send('GET', '/a', {}, undefined)).text).toBe('/a');
    expect((await counted.send('GET', '/b', {}, undefined)).text).toBe('/b');
    expect(connections).toBe(1);
    server!.closeIdleConnections();
    expect((await counted.send('GET', '/c', {}, undefined)).text).toBe('/c');
    expect(connections).toBe(2);
  });

  it('sends method, path, headers and body, and reads a Content-Length answer', async () => {
    const endpoint = await serve((req, res, body) => {
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ method: req.method, url: req.url, host: req.headers.host, auth: req.headers.authorization, body }));
    });
    const answer = await nodeHttpPort(() => endpoint).send('POST', '/api/jobs?x=1', { Authorization: 'Bearer t' }, '{"argv":["é"]}');
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toEqual({ method: 'POST', url: '/api/jobs?x=1', host: 'localhost', auth: 'Bearer t', body: '{"argv":["é"]}' });
  });

  it('names the address it talks to in Host over TCP, as the API requires', async () => {
    const endpoint = await serve((req, res) => res.end(req.headers.host), 'tcp');
    const answer = await nodeHttpPort(() => endpoint).send('GET', '/', {}, undefined);
    expect(answer.text).toBe(`127.0.0.1:${(endpoint as { port: number }).port}`);
  });

  it('joins a chunked answer, a character split across chunks included', async () => {
    const endpoint = await serve((_req, res) => {
      res.writeHead(409, { 'Content-Type': 'application/json' });
      const bytes = Buffer.from('{"error":{"code":"conflict","message":"déjà"}}');
      const cut = bytes.indexOf(0xc3) + 1;
      res.write(bytes.subarray(0, cut));
      setImmediate(() => res.end(bytes.subarray(cut)));
    });
    const answer = await nodeHttpPort(() => endpoint).send('GET', '/', {}, undefined);
    expect(answer.status).toBe(409);
    expect(JSON.parse(answer.text)).toEqual({ error: { code: 'conflict', message: 'déjà' } });
  });

  it('says the engine hung up when the answer is cut short', async () => {
    const endpoint = await serve((_req, res) => {
      res.writeHead(200, { 'Content-Length': '100' });
      res.write('{"partial":');
      setImmediate(() => res.socket?.destroy());
    });
    const error = await nodeHttpPort(() => endpoint).send('GET', '/', {}, undefined).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LanesError);
    expect((error as LanesError).code).toBe('unavailable');
  });

  it('says nothing answers where no server listens', async () => {
    const dir = tempDataDir('lanes-http-');
    cleanups.push(dir.remove);
    const error = await nodeHttpPort(() => ({ socketPath: join(dir.dir, 'engine.sock') }))
      .send('GET', '/', {}, undefined)
      .catch((e: unknown) => e);
    expect((error as LanesError).code).toBe('unavailable');
    expect((error as LanesError).message).toMatch(/nothing answers at .*engine\.sock \(ENOENT\)/);
  });

  it('refuses a header with a line break rather than send it', async () => {
    const endpoint = await serve((_req, res) => res.end('should not be reached'));
    await expect(nodeHttpPort(() => endpoint).send('GET', '/', { Authorization: 'Bearer x\r\nX-Evil: 1' }, undefined)).rejects.toThrow(/line break/);
  });
});

describe('parseAnswer', () => {
  it('waits for the whole head and the whole declared body', () => {
    expect(parseAnswer(Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 5\r\n'))).toBeNull();
    expect(parseAnswer(Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nabc'))).toBeNull();
    expect(parseAnswer(Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc'))).toEqual({ status: 200, text: 'abc' });
  });

  it('refuses what is not HTTP, and a chunked body without its end', () => {
    expect(parseAnswer(Buffer.from('SSH-2.0-OpenSSH\r\n\r\n'))).toBeNull();
    expect(parseAnswer(Buffer.from('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n'))).toBeNull();
    expect(parseAnswer(Buffer.from('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n'))).toEqual({ status: 200, text: 'abc' });
  });
});
