// The window stays live: the scale timeline draws and lists why the fleet changed. When the engine
// goes away the window says so, and never hands its key to whatever answers on the port next: a
// restarted engine (new token) or a stranger must first prove they hold the window's token.
import { createServer } from 'node:http';
import { test, expect, laneRow, startWindowDaemon } from './fixtures.js';

test('the scale timeline charts each lane and lists the ledger with reasons', async ({ lanes: page, daemon }) => {
  await daemon.cli('add', '--', 'sleep', '2');
  await expect(laneRow(page, 'worker').locator('.pips .pip-busy')).toHaveCount(1);
  await page.getByRole('tab', { name: 'Scale timeline' }).click();
  await expect(page.locator('figure.chart[data-lane="worker"] canvas')).toBeVisible();
  await expect(page.locator('.chart-quiet[data-lane="ml"]')).toContainText('no workers and nothing waiting');
  const ledger = page.getByTestId('ledger');
  await expect(ledger.locator('li').first()).toContainText('0 → 1');
  await expect(ledger).toContainText('Work waiting');
  // The worker is given back once the lane is idle; the ledger hears about it live.
  await expect(ledger.locator('li').first()).toContainText('1 → 0', { timeout: 15_000 });
});

test('after a restart it sends its old key nowhere, says how to open it again, and then catches up', async ({ lanes: page, daemon }) => {
  const sentKeys: string[] = [];
  page.on('request', (r) => {
    const auth = r.headers()['authorization'];
    if (auth) sentKeys.push(auth);
  });
  await daemon.stop();
  await expect(page.getByRole('status').filter({ hasText: 'Reconnecting…' })).toBeVisible();
  await expect(page.getByTestId('stale')).toContainText('Lost touch with the engine');
  const keysWhileDown = sentKeys.length;
  // The same port, a new engine with a new token: the window asks it to prove itself first.
  const again = await startWindowDaemon({ dataDir: daemon.dataDir, port: daemon.port });
  try {
    await expect(page.getByTestId('stale')).toContainText('Lanes restarted', { timeout: 15_000 });
    await expect(page.getByTestId('stale')).toContainText('lanes open');
    await expect(page.getByRole('status').filter({ hasText: 'Lanes restarted' })).toBeVisible();
    expect(sentKeys.length).toBe(keysWhileDown);
    // Opened again as it says, it shows what happened meanwhile.
    await again.cli('add', '--lane', 'ml', '--', 'echo', 'after the restart');
    await page.goto(again.url);
    await expect(page.getByRole('status').filter({ hasText: 'Connected' })).toBeVisible();
    await expect(laneRow(page, 'ml').getByTestId('waiting')).toHaveText('1');
    await expect(page.locator('[data-job-id]').first()).toContainText('after the restart');
  } finally {
    await again.stop();
  }
});

test('restarted without a port it comes back on the same one; the window says so, and reopened shows the chart and ledger across the restart', async ({ lanes: page, daemon }) => {
  await daemon.cli('add', '--', 'sleep', '1');
  await expect(laneRow(page, 'worker').locator('.pips .pip-busy')).toHaveCount(1);
  await daemon.stop();
  await expect(page.getByRole('status').filter({ hasText: 'Reconnecting…' })).toBeVisible();
  const again = await startWindowDaemon({ dataDir: daemon.dataDir });
  try {
    expect(again.port).toBe(daemon.port);
    await expect(page.getByTestId('stale')).toContainText('Lanes restarted', { timeout: 15_000 });
    await expect(page.getByTestId('stale')).toContainText('lanes open');
    await page.goto(again.url);
    await expect(page.getByRole('status').filter({ hasText: 'Connected' })).toBeVisible();
    await page.getByRole('tab', { name: 'Scale timeline' }).click();
    const ledger = page.getByTestId('ledger');
    // Both runs are in the ledger, the stop between them too, and the chart reaches back before it.
    await expect(ledger.locator('li', { hasText: 'Engine started' })).toHaveCount(2);
    await expect(ledger.locator('li', { hasText: 'Engine stopped' })).toHaveCount(1);
    await expect(page.locator('figure.chart[data-lane="worker"] canvas')).toBeVisible();
  } finally {
    await again.stop();
  }
});

test('a stranger who takes the port after the engine stops is never sent the key', async ({ lanes: page, daemon }) => {
  await daemon.stop();
  const seen: string[] = [];
  const stranger = createServer((req, res) => {
    seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? '-'}`);
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ proof: 'not it' }));
  });
  await new Promise<void>((done) => stranger.listen(daemon.port, '127.0.0.1', done));
  try {
    await expect(page.getByTestId('stale')).toContainText('Lanes restarted', { timeout: 15_000 });
    expect(seen.length).toBeGreaterThan(0);
    for (const line of seen) expect(line).not.toContain(daemon.token);
    expect(seen.every((line) => line.endsWith(' -'))).toBe(true);
  } finally {
    await new Promise<void>((done) => stranger.close(() => done()));
  }
});

test('an address without its key says how to open the window, not that a token was refused', async ({ page, daemon }) => {
  await page.goto(daemon.url.replace(/#token=\w+/, ''));
  await expect(page.getByText('This page was opened without its key')).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'No key' })).toBeVisible();
  await expect(page.getByText('Token refused')).toHaveCount(0);
});

test('without the right token the window says how to open it properly', async ({ page, daemon }) => {
  await page.goto(daemon.url.replace(/#token=\w+/, '#token=not-the-token'));
  await expect(page.getByText('This window’s token was not accepted')).toBeVisible();
  await expect(page.getByText('lanes open')).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Token refused' })).toBeVisible();
  // The address bar no longer shows the token, right or wrong.
  expect(new URL(page.url()).hash).toBe('');
});

test('a window whose engine is gone greys its numbers, stops its clocks, disables its controls and says what happened; reloaded, it says how to get in', async ({ lanes: page, daemon }) => {
  await daemon.cli('add', '--', 'sleep', '30');
  await expect(laneRow(page, 'worker').locator('.pips .pip-busy')).toHaveCount(1);
  await daemon.stop();
  await expect(page.locator('.app')).toHaveAttribute('data-stale', 'true');
  await expect(page.getByTestId('stale')).toContainText('nothing can be changed');
  // Controls: the header's and the lanes' are out of reach.
  await expect(page.getByRole('button', { name: 'Add lane…' })).toBeDisabled();
  await expect(page.locator('main.content')).toHaveAttribute('inert', '');
  // Greyed: the numbers are drawn without colour (the clocks' stop is test/renderer/stale.test.ts).
  await expect(page.locator('main.content')).toHaveCSS('filter', 'grayscale(1)');
  const again = await startWindowDaemon({ dataDir: daemon.dataDir, port: daemon.port });
  try {
    // Reloaded, the old address has only the key this tab kept, which the new engine does not take.
    await page.reload();
    await expect(page.getByText('its key is new at every start').first()).toBeVisible();
    await expect(page.getByText('Token refused')).toHaveCount(0);
    await expect(page.getByRole('status').filter({ hasText: 'Needs a new key' })).toBeVisible();
  } finally {
    await again.stop();
  }
});
