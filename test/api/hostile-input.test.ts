// Input the schema alone would let through: each gets a 400 that names the field, and nothing is
// stored. Over HTTP, because that is where a stranger's bytes arrive; the engine checks the same
// way for every transport.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostedEngine } from '../../electron/api/host.js';
import type { LanesClient } from '../../shared/client/client.js';
import { startHostedApi, type api } from '../support/http.js';
import { tempDataDir } from '../support/daemon.js';

describe('input the schema lets through', () => {
  const tmp = tempDataDir();
  let host: HostedEngine;
  let call: ReturnType<typeof api>;
  let client: LanesClient;
  let file = '';

  beforeAll(async () => {
    ({ host, call, client } = await startHostedApi(join(tmp.dir, 'data')));
    file = join(tmp.dir, 'a-file.txt');
    writeFileSync(file, 'not a directory');
    mkdirSync(join(tmp.dir, 'work'));
  });
  afterAll(async () => {
    await host?.close({ graceMs: 0 });
    tmp.remove();
  });

  const stored = async () => {
    const s = await client.call('status', {});
    return { jobs: (await client.call('listJobs', {})).total, lanes: s.lanes.map((l) => [l.name, l.cap, l.workerCommand]) };
  };

  async function refused(path: string, body: string | object, field: string): Promise<void> {
    const res = await call.post(path, body);
    expect(res.status, `${path} ${typeof body === 'string' ? body : JSON.stringify(body)}`).toBe(400);
    const error = (res.json as { error: { field?: string; message: string } }).error;
    expect(error.field, error.message).toBe(field);
  }

  it('a __proto__ key is an unknown field, not a way to set the lane', async () => {
    const before = await stored();
    await refused('/api/jobs', '{"argv":["true"],"__proto__":{"lane":"ml"}}', '__proto__');
    await refused('/api/jobs/batch', '{"jobs":[{"argv":["true"],"__proto__":{"lane":"ml"}}]}', 'jobs.0.__proto__');
    expect(await stored()).toEqual(before);
  });

  it('NUL bytes in argv, shell, cwd or env', async () => {
    const before = await stored();
    await refused('/api/jobs', { argv: ['echo', 'a\u0000b'] }, 'argv.1');
    await refused('/api/jobs', { shell: 'echo a\u0000b' }, 'shell');
    await refused('/api/jobs', { argv: ['true'], cwd: `${tmp.dir}\u0000` }, 'cwd');
    await refused('/api/jobs', { argv: ['true'], env: { A: 'x\u0000y' } }, 'env.A');
    expect(await stored()).toEqual(before);
  });

  it('a cwd that is missing, relative, or a file', async () => {
    const before = await stored();
    for (const cwd of [join(tmp.dir, 'nowhere'), 'relative/dir', file]) {
      const res = await call.post('/api/jobs', { argv: ['true'], cwd });
      expect(res.status, cwd).toBe(400);
      expect(res.json).toMatchObject({ error: { field: 'cwd', message: expect.stringMatching(/director/) } });
    }
    expect(await stored()).toEqual(before);
  });

  it('argv, a shell line or env larger than the OS lets a program start with', async () => {
    const before = await stored();
    await refused('/api/jobs', { argv: ['echo', 'x'.repeat(200_000)] }, 'argv');
    await refused('/api/jobs', { argv: ['echo', ...Array(40).fill('y'.repeat(7_000))] }, 'argv');
    await refused('/api/jobs', { shell: `echo ${'x'.repeat(200_000)}` }, 'shell');
    await refused('/api/jobs', { argv: ['true'], env: { BIG: 'z'.repeat(200_000) } }, 'env');
    expect(await stored()).toEqual(before);
  });

  it('env names that are empty or contain "="', async () => {
    const before = await stored();
    await refused('/api/jobs', { argv: ['true'], env: { '': 'x' } }, 'env');
    await refused('/api/jobs', { argv: ['true'], env: { 'A=B': 'c' } }, 'env');
    expect(await stored()).toEqual(before);
  });

  it('a payload nested deeper than the limit, or larger than it', async () => {
    await client.call('addLane', { name: 'words', workerCommand: ['python3', '-c', 'pass'] });
    const before = await stored();
    const deep = '['.repeat(4_110) + ']'.repeat(4_110);
    await refused('/api/jobs', `{"lane":"words","payload":${deep}}`, 'payload');
    await refused('/api/jobs', { lane: 'words', payload: { text: 'w '.repeat(1_100_000) } }, 'payload');
    expect(await stored()).toEqual(before);
  });

  it('addLane: a workerCwd that is a file, a workerCommand that is empty, has NUL or cannot be found', async () => {
    const before = await stored();
    await refused('/api/lanes', { name: 'a', workerCommand: ['python3'], workerCwd: file }, 'workerCwd');
    await refused('/api/lanes', { name: 'b', workerCommand: [''] }, 'workerCommand');
    await refused('/api/lanes', { name: 'c', workerCommand: ['python3', 'x\u0000'] }, 'workerCommand.1');
    const missing = await call.post('/api/lanes', { name: 'd', workerCommand: ['no-such-program-anywhere'] });
    expect(missing.status).toBe(400);
    expect(missing.json).toMatchObject({ error: { field: 'workerCommand', message: expect.stringMatching(/no-such-program-anywhere/) } });
    expect(await stored()).toEqual(before);
  });
});
