// Who may use the API over TCP: the window's token, our own Host, our own Origin.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostEngine, type HostedEngine } from '../../electron/api/host.js';
import type { JobPage, Status } from '../../shared/model.js';
import { api, raw, openRawStream } from '../support/http.js';
import { ensureBuilt, tempDataDir } from '../support/daemon.js';
import { quietMachine } from '../support/machine.js';

const isPosix = process.platform !== 'win32';

describe('API access', () => {
  const tmp = tempDataDir();
  let host: HostedEngine;
  let port: number;

  beforeAll(async () => {
    await ensureBuilt();
    host = await hostEngine({ machineReaders: quietMachine(), dataDir: tmp.dir, cores: 3, tickMs: 100, log: () => {} });
    port = host.port;
  });
  afterAll(async () => {
    await host?.close({ graceMs: 0 });
    tmp.remove();
  });

  const good = () => api(port, host.token);

  async function jobsAndCaps() {
    const status = (await good().get('/api/status')).json as Status;
    const jobs = (await good().get('/api/jobs')).json as JobPage;
    return { caps: status.lanes.map((l) => [l.name, l.cap]), total: jobs.total };
  }

  it('publishes a private daemon.json, and a window token of 256 bits kept in memory', () => {
    const info = JSON.parse(readFileSync(join(tmp.dir, 'daemon.json'), 'utf8')) as Record<string, unknown>;
    expect(info).toMatchObject({ port, pid: process.pid, url: `http://127.0.0.1:${port}/`, socket: host.socket });
    expect(typeof info.startedAt).toBe('number');
    expect(host.token).toMatch(/^[0-9a-f]{64}$/);
    expect(host.url).toBe(`http://127.0.0.1:${port}/#token=${host.token}`);
    if (isPosix) {
      expect(statSync(join(tmp.dir, 'daemon.json')).mode & 0o777).toBe(0o600);
      expect(statSync(tmp.dir).mode & 0o777).toBe(0o700);
    }
  });

  it('answers 401 without a token or with a wrong one, and changes nothing', async () => {
    const before = await jobsAndCaps();
    const wrong = 'f'.repeat(64);
    const attempts = [
      raw(port, { path: '/api/status' }),
      raw(port, { path: '/api/status', headers: { Authorization: `Bearer ${wrong}` } }),
      raw(port, { path: '/api/status', headers: { Authorization: host.token } }),
      raw(port, { method: 'POST', path: '/api/jobs', headers: { 'Content-Type': 'application/json' }, body: '{"argv":["true"]}' }),
      raw(port, { method: 'POST', path: '/api/jobs', headers: { Authorization: `Bearer ${wrong}`, 'Content-Type': 'application/json' }, body: '{"argv":["true"]}' }),
      raw(port, { method: 'POST', path: '/api/lanes/worker/cap', headers: { Authorization: `Bearer ${wrong}`, 'Content-Type': 'application/json' }, body: '{"cap":2}' }),
      raw(port, { method: 'DELETE', path: '/api/lanes/ml' }),
      // The query-string token is for the event stream only.
      raw(port, { path: `/api/status?token=${host.token}` }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(401);
      expect(res.json).toMatchObject({ error: { code: 'unauthorized' } });
    }
    expect(await jobsAndCaps()).toEqual(before);
  });

  it('refuses a foreign Host (DNS rebinding) even with the right token', async () => {
    for (const host of ['evil.example:' + port, `127.0.0.1:${port + 1}`, '127.0.0.1', `[::1]:${port}`]) {
      const res = await good().get('/api/status', { Host: host });
      expect(res.status, host).toBe(403);
      expect(res.json).toMatchObject({ error: { code: 'forbidden' } });
    }
    // The window's own page is guarded the same way.
    expect((await raw(port, { path: '/', headers: { Host: 'evil.example' } })).status).toBe(403);
    expect((await good().get('/api/status', { Host: `localhost:${port}` })).status).toBe(200);
  });

  it('refuses a foreign Origin and accepts its own', async () => {
    const before = await jobsAndCaps();
    for (const origin of ['http://evil.example', 'null', `http://127.0.0.1:${port + 1}`, `https://127.0.0.1:${port}`]) {
      const res = await good().post('/api/lanes/worker/cap', { cap: 2 }, { Origin: origin });
      expect(res.status, origin).toBe(403);
    }
    expect(await jobsAndCaps()).toEqual(before);
    expect((await good().get('/api/status', { Origin: `http://127.0.0.1:${port}` })).status).toBe(200);
    expect((await good().get('/api/status', { Origin: `http://localhost:${port}` })).status).toBe(200);
  });

  it('takes the token as ?token= on the event stream, where EventSource cannot send headers', async () => {
    expect((await raw(port, { path: '/api/events?token=' + 'f'.repeat(64) })).status).toBe(401);
    const stream = await openRawStream(port, { path: `/api/events?token=${host.token}` });
    expect(stream.response.statusCode).toBe(200);
    expect(stream.response.headers['content-type']).toMatch(/^text\/event-stream/);
    stream.close();
  });
});

describe('the window token', () => {
  it('is new at every start and written nowhere, so one captured earlier opens nothing', async () => {
    await ensureBuilt();
    const tmp = tempDataDir();
    try {
      const first = await hostEngine({ machineReaders: quietMachine(), dataDir: tmp.dir, cores: 3, log: () => {} });
      await first.close({ graceMs: 0 });
      const second = await hostEngine({ machineReaders: quietMachine(), dataDir: tmp.dir, cores: 3, log: () => {} });
      try {
        expect(second.token).not.toBe(first.token);
        expect(second.port).toBe(first.port);
        for (const name of readdirSync(tmp.dir)) {
          if (statSync(join(tmp.dir, name)).isFile()) expect(readFileSync(join(tmp.dir, name), 'latin1'), name).not.toContain(second.token);
        }
        const stale = await raw(second.port, { path: '/api/status', headers: { Authorization: `Bearer ${first.token}` } });
        expect(stale.status).toBe(401);
      } finally {
        await second.close({ graceMs: 0 });
      }
    } finally {
      tmp.remove();
    }
  });
});
