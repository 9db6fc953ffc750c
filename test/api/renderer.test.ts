// The window's files at `/`: no token needed (it rides in the fragment), right content types,
// nothing outside the build directory, and a plain page when the window is not built.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostEngine, type HostedEngine } from '../../electron/api/host.js';
import { raw } from '../support/http.js';
import { ensureBuilt, tempDataDir } from '../support/daemon.js';
import { quietMachine } from '../support/machine.js';

describe('the window at /', () => {
  const tmp = tempDataDir();
  const site = tempDataDir('lanes-site-');
  let renderer = '';
  let host: HostedEngine;
  let bare: HostedEngine;

  beforeAll(async () => {
    await ensureBuilt();
    renderer = join(site.dir, 'renderer');
    mkdirSync(join(renderer, 'assets'), { recursive: true });
    writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>Lanes</title><script type="module" src="/assets/app-1a2b.js"></script>');
    writeFileSync(join(renderer, 'assets', 'app-1a2b.js'), 'console.log("lanes")');
    writeFileSync(join(renderer, 'assets', 'app-1a2b.css'), 'body{}');
    writeFileSync(join(site.dir, 'secret.txt'), 'not for the web');
    host = await hostEngine({ machineReaders: quietMachine(), dataDir: tmp.dir, cores: 3, log: () => {}, rendererDir: renderer });
    bare = await hostEngine({ machineReaders: quietMachine(), dataDir: join(tmp.dir, 'second'), cores: 3, log: () => {}, rendererDir: join(site.dir, 'not-built') });
  });
  afterAll(async () => {
    await host?.close({ graceMs: 0 });
    await bare?.close({ graceMs: 0 });
    tmp.remove();
    site.remove();
  });

  it('serves index.html and assets without a token, with their content types', async () => {
    const page = await raw(host.port, { path: '/' });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.text).toContain('<title>Lanes</title>');
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    const js = await raw(host.port, { path: '/assets/app-1a2b.js' });
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['cache-control']).toContain('immutable');
    expect((await raw(host.port, { path: '/assets/app-1a2b.css' })).headers['content-type']).toBe('text/css; charset=utf-8');
  });

  it("answers the window's own routes with index.html and missing assets with 404", async () => {
    const route = await raw(host.port, { path: '/lanes/worker' });
    expect(route.status).toBe(200);
    expect(route.text).toContain('<title>Lanes</title>');
    expect((await raw(host.port, { path: '/assets/missing.js' })).status).toBe(404);
  });

  it('never serves a file outside the build directory', async () => {
    for (const path of ['/../secret.txt', '/..%2fsecret.txt', '/assets/..%2f..%2fsecret.txt', '/%2e%2e/secret.txt', '/..%5csecret.txt']) {
      const res = await raw(host.port, { path });
      expect(res.text, path).not.toContain('not for the web');
    }
  });

  it('says plainly when the window is not built', async () => {
    const res = await raw(bare.port, { path: '/' });
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/isn't built yet/);
    // The API itself works regardless.
    expect((await raw(bare.port, { path: '/api/status', headers: { Authorization: `Bearer ${bare.token}` } })).status).toBe(200);
  });
});
