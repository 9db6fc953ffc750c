// The window inside the desktop app talks through `window.lanes` (the preload's IPC bridge), not
// HTTP. Here a stand-in bridge with the same shape (IpcBridge in shared/client/ipc.ts) is put in
// the page before it loads, and the page is opened without a token: everything the window shows
// and does must go through it. And the CSP the desktop app sends on app://lanes/ must not have to
// refuse anything.
import { requests } from '../../shared/requests.js';
import { WINDOW_CSP } from '../../electron/api/window-files.js';
import { test, expect, laneRow } from './fixtures.js';

/**
 * An IpcBridge in plain browser JavaScript: requests by fetch, events by EventSource. The event
 * stream opens with a `start` (or `reset`) frame carrying `{ seq }`, as the preload's onStart does.
 */
function standInBridge(token: string): string {
  const routes = Object.fromEntries(Object.entries(requests).map(([name, r]) => [name, [r.method, r.path]]));
  return `(() => {
    const routes = ${JSON.stringify(routes)};
    const token = ${JSON.stringify(token)};
    const calls = (window.__bridgeCalls = []);
    window.lanes = {
      async request(name, input) {
        calls.push(name);
        const [method, path] = routes[name];
        const rest = { ...input };
        const url = path.replace(/:([A-Za-z]+)/g, (_, key) => { const v = rest[key]; delete rest[key]; return encodeURIComponent(v); });
        const query = new URLSearchParams(Object.entries(rest).filter(([, v]) => v !== undefined));
        const res = await fetch(method === 'GET' ? url + '?' + query : url, {
          method,
          headers: { Authorization: 'Bearer ' + token, 'Content-Type': 'application/json' },
          body: method === 'GET' ? undefined : JSON.stringify(rest),
        });
        const body = await res.json();
        return res.ok ? { ok: true, value: body } : { ok: false, error: body.error };
      },
      listen(since, onStart, onEvents) {
        calls.push('listen');
        const source = new EventSource('/api/events?token=' + encodeURIComponent(token) + (since ? '&since=' + since : ''));
        source.addEventListener('start', (m) => onStart(JSON.parse(m.data).seq, false));
        source.addEventListener('reset', (m) => onStart(JSON.parse(m.data).seq, true));
        for (const type of ['lane', 'laneRemoved', 'job', 'jobs', 'scale']) {
          source.addEventListener(type, (m) => onEvents([JSON.parse(m.data)]));
        }
        return () => source.close();
      },
    };
  })();`;
}

test('with window.lanes present the window uses it, and needs no token of its own', async ({ page, daemon }) => {
  await page.addInitScript({ content: standInBridge(daemon.token) });
  await page.goto(`http://127.0.0.1:${daemon.port}/`);
  await expect(page.getByRole('status').filter({ hasText: 'Connected' })).toBeVisible();
  const worker = laneRow(page, 'worker');
  await expect(worker).toBeVisible();

  await daemon.cli('add', '--', 'sleep', '3');
  await expect(worker.locator('.pips .pip-busy')).toHaveCount(1);
  await worker.getByRole('button', { name: 'Raise the cap of worker' }).click();
  await expect.poll(async () => (await daemon.api('status', {})).lanes.find((l) => l.name === 'worker')?.cap).toBe(2);

  const calls = await page.evaluate(() => (globalThis as unknown as { __bridgeCalls: string[] }).__bridgeCalls);
  expect(calls).toEqual(expect.arrayContaining(['listen', 'status', 'listJobs', 'setCap']));
});

test('under the desktop app’s CSP nothing the window does is refused', async ({ page, daemon }) => {
  const violations: string[] = [];
  await page.exposeFunction('__cspViolation', (text: string) => violations.push(text));
  await page.addInitScript({
    content: `document.addEventListener('securitypolicyviolation', (e) => window.__cspViolation(e.violatedDirective + ' ' + e.blockedURI + ' at ' + e.sourceFile + ':' + e.lineNumber));`,
  });
  // Serve every page file with the header the desktop app sends.
  await page.route(`http://127.0.0.1:${daemon.port}/**`, async (route) => {
    if (route.request().url().includes('/api/')) return route.continue();
    const response = await route.fetch();
    await route.fulfill({ response, headers: { ...response.headers(), 'content-security-policy': WINDOW_CSP } });
  });
  await page.goto(daemon.url);
  const worker = laneRow(page, 'worker');
  await daemon.cli('add', '--', 'sh', '-c', 'echo hello; sleep 2');
  await expect(worker.locator('.pips .pip-busy')).toHaveCount(1);
  await page.locator('[data-job-id]').first().click();
  await expect(page.getByTestId('log-text')).toContainText('hello');
  await page.getByRole('tab', { name: 'Scale timeline' }).click();
  await expect(page.locator('figure.chart[data-lane="worker"] canvas')).toBeVisible();
  expect(violations).toEqual([]);
});
