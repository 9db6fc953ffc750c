// Requests over HTTP: routes come from the shared table, bad input is refused naming the field,
// and nothing refused changes anything.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostedEngine } from '../../electron/api/host.js';
import { requests, type RequestName } from '../../shared/requests.js';
import type { Job, JobPage, LaneStatus, Status } from '../../shared/model.js';
import type { SseMessage } from '../../shared/client/sse.js';
import { raw, startHostedApi, type api, openRawStream } from '../support/http.js';
import { tempDataDir } from '../support/daemon.js';

describe('API requests', () => {
  const tmp = tempDataDir();
  let host: HostedEngine;
  let call: ReturnType<typeof api>;

  beforeAll(async () => ({ host, call } = await startHostedApi(tmp.dir)));
  afterAll(async () => {
    await host?.close({ graceMs: 0 });
    tmp.remove();
  });

  async function snapshot() {
    const status = (await call.get('/api/status')).json as Status;
    const jobs = (await call.get('/api/jobs')).json as JobPage;
    return { lanes: status.lanes.map((l) => ({ name: l.name, cap: l.cap, class: l.class })), total: jobs.total };
  }

  it('GET /api/status answers the engine status', async () => {
    const res = await call.get('/api/status');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const status = res.json as Status;
    // Three cores and no desktop (nobody known at the computer): every core.
    expect(status.ceiling).toBe(3);
    expect(status.lanes.map((l) => l.name).sort()).toEqual(['ml', 'worker']);
  });

  it('serves every request in the table at its method and path', async () => {
    // Each route answers with something other than "no such route" — a 200, or the engine's own
    // 4xx for the placeholder input (job 999 does not exist, and so on).
    const fill = (path: string) => path.replace(':id', '999').replace(':lane', 'worker').replace(':name', 'nosuch');
    for (const name of Object.keys(requests) as RequestName[]) {
      const { method, path } = requests[name];
      const res = await raw(host.port, {
        method,
        path: fill(path),
        headers: { Authorization: `Bearer ${host.token}`, 'Content-Type': 'application/json' },
        ...(method === 'GET' ? {} : { body: '{}' }),
      });
      expect(res.json, `${name}: ${res.text}`).toBeDefined();
      expect((res.json as { error?: { message: string } }).error?.message ?? '', name).not.toMatch(/no such API route/);
    }
  });

  it('runs a job end to end: add, detail, list with a query, log', async () => {
    const added = await call.post('/api/jobs', { argv: ['sh', '-c', 'echo hello from lanes'] });
    expect(added.status).toBe(200);
    const { id } = added.json as { id: number };
    const stream = await openRawStream(host.port, { path: '/api/events', headers: { Authorization: `Bearer ${host.token}` } });
    const current = (await call.get(`/api/jobs/${id}`)).json as Job;
    if (current.state !== 'succeeded') {
      await stream.next((f: SseMessage) => f.event === 'job' && (JSON.parse(f.data) as { data: Job }).data.id === id && (JSON.parse(f.data) as { data: Job }).data.state === 'succeeded');
    }
    stream.close();
    const page = (await call.get('/api/jobs?lane=worker&state=succeeded&limit=5')).json as JobPage;
    expect(page.jobs.map((j) => j.id)).toContain(id);
    const log = (await call.get(`/api/jobs/${id}/log?stream=stdout&maxBytes=100`)).json as { text: string };
    expect(log.text).toBe('hello from lanes\n');
  });

  it('answers 400 for malformed JSON, naming nothing it cannot know', async () => {
    const before = await snapshot();
    const res = await call.post('/api/jobs', '{"argv": ["true"');
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ error: { code: 'bad_request', message: expect.stringMatching(/not valid JSON/) } });
    expect((await call.post('/api/jobs', '[1,2]')).status).toBe(400);
    expect(await snapshot()).toEqual(before);
  });

  it('answers 400 naming the field for a schema violation', async () => {
    const before = await snapshot();
    const cases: [string, unknown, string][] = [
      ['/api/lanes/worker/cap', { cap: 1.5 }, 'cap'],
      ['/api/lanes/worker/cap', { cap: -1 }, 'cap'],
      ['/api/lanes/worker/cap', { cap: 'two' }, 'cap'],
      ['/api/jobs', { argv: [] }, 'argv'],
      ['/api/jobs', { shell: '   ' }, 'shell'],
      ['/api/jobs', { argv: ['true'], maxAttempts: 0 }, 'maxAttempts'],
      ['/api/jobs', { argv: ['true'], surprise: 1 }, 'surprise'],
      ['/api/lanes', { name: 'Bad Name!' }, 'name'],
      ['/api/lanes/worker/cap', { lane: 'ml', cap: 1 }, 'lane'],
    ];
    for (const [path, body, field] of cases) {
      const res = await call.post(path, body);
      expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      const error = (res.json as { error: { field?: string; message: string } }).error;
      expect(error.field, error.message).toBe(field);
      expect(error.message).toContain(field);
    }
    const query = await call.get('/api/jobs?limit=1.5');
    expect(query.status).toBe(400);
    expect(query.json).toMatchObject({ error: { field: 'limit' } });
    expect((await call.get('/api/jobs?state=lost')).json).toMatchObject({ error: { field: 'state' } });
    expect((await call.get('/api/jobs/abc')).json).toMatchObject({ error: { field: 'id' } });
    expect(await snapshot()).toEqual(before);
  });

  it('refuses what the engine refuses: a cap beyond any lane’s, an unknown lane', async () => {
    const before = await snapshot();
    const high = await call.post('/api/lanes/worker/cap', { cap: 300 });
    expect(high.status).toBe(400);
    expect(high.json).toMatchObject({ error: { code: 'bad_request', field: 'cap', message: expect.stringMatching(/at most 256/) } });
    expect((await call.post('/api/lanes/nosuch/cap', { cap: 1 })).status).toBe(404);
    expect((await call.post('/api/jobs', { lane: 'nosuch', argv: ['true'] })).status).toBe(404);
    expect((await call.get('/api/jobs/424242')).status).toBe(404);
    expect(await snapshot()).toEqual(before);
  });

  it('changes a cap and manages lanes', async () => {
    const capped = await call.post('/api/lanes/worker/cap', { cap: 2 });
    expect(capped.status).toBe(200);
    expect((capped.json as LaneStatus).cap).toBe(2);
    expect((await call.post('/api/lanes', { name: 'batch', cap: 1 })).json).toMatchObject({ name: 'batch', class: 'cpu', cap: 1 });
    expect((await call.del('/api/lanes/batch')).json).toEqual({ removed: 'batch' });
    expect((await call.post('/api/lanes/worker/cap', { cap: 1 })).status).toBe(200);
  });

  it('answers 413 for a body over the limit, and 404 / 405 for unknown routes and methods', async () => {
    const before = await snapshot();
    const huge = JSON.stringify({ argv: ['echo', 'x'.repeat(9 * 1024 * 1024)] });
    const res = await call.post('/api/jobs', huge);
    expect(res.status).toBe(413);
    expect(res.json).toMatchObject({ error: { code: 'too_large' } });
    expect(await snapshot()).toEqual(before);
    expect((await call.get('/api/nothing-here')).status).toBe(404);
    const wrong = await raw(host.port, { method: 'PUT', path: '/api/jobs', headers: { Authorization: `Bearer ${host.token}` } });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.allow).toContain('POST');
  });

  it('refuses a body that is not JSON (a form post from another page)', async () => {
    const res = await call.post('/api/jobs', 'argv=true', { 'Content-Type': 'text/plain' });
    expect(res.status).toBe(415);
  });
});
