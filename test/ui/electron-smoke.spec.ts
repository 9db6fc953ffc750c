// The desktop app end to end: launch Electron on the built app, find the tray menu, open the
// window, set a cap from the tray and see it in the window, then quit cleanly. Needs Electron's
// binary, which `npm install` downloads on a normal machine; where it is absent (offline CI) the
// test is skipped and says so. Checking never triggers the download: require('electron') would.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { _electron as electron, expect, test, type ElectronApplication, type Page } from '@playwright/test';
import type { IpcBridge } from '../../shared/client/ipc.js';
import type { Status } from '../../shared/model.js';
import type { LanesTestHooks } from '../../electron/shell/test-hooks.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The Electron executable if it is on disk and can show windows; otherwise why not. */
function electronBinary(): { path: string } | { missing: string } {
  const pkg = path.join(root, 'node_modules', 'electron');
  const pathFile = path.join(pkg, 'path.txt');
  if (!fs.existsSync(pathFile)) return { missing: 'Electron binary not installed (node_modules/electron/path.txt absent; `npx install-electron` fetches it)' };
  const relative = fs.readFileSync(pathFile, 'utf8').trim();
  const dist = process.env.ELECTRON_OVERRIDE_DIST_PATH ?? path.join(pkg, 'dist');
  const binary = path.join(dist, relative);
  if (!fs.existsSync(binary)) return { missing: `Electron binary not found at ${path.relative(root, binary)}` };
  // A tray and a window need a display; on a headless Linux box run the tests under xvfb-run.
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) return { missing: 'no display (on headless Linux, run under xvfb-run)' };
  return { path: binary };
}

const found = electronBinary();
// Said once on the console too: the list reporter shows a skip without its reason.
if ('missing' in found) console.warn(`electron-smoke: skipped — ${found.missing}`);
test.skip('missing' in found, 'missing' in found ? found.missing : '');

const abi = (target: 'node' | 'electron') => execFileSync(process.execPath, [path.join(root, 'electron/native/abi.mjs'), target], { stdio: 'inherit' });

let app: ElectronApplication;
let page: Page;
let dataDir: string;

const hooks = (a: ElectronApplication) => ({
  ids: () => a.evaluate(() => (globalThis as unknown as { __lanesTest: LanesTestHooks }).__lanesTest.trayItemIds()),
  item: (id: string) => a.evaluate((_e, itemId) => (globalThis as unknown as { __lanesTest: LanesTestHooks }).__lanesTest.trayItem(itemId), id),
  click: (id: string) => a.evaluate((_e, itemId) => (globalThis as unknown as { __lanesTest: LanesTestHooks }).__lanesTest.clickTrayItem(itemId), id),
});

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browserName: _unused }, testInfo) => {
  testInfo.setTimeout(600_000);
  if ('missing' in found) return;
  // better-sqlite3 must be built for Electron to run the app; put it back for Node afterwards.
  abi('electron');
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lanes-electron-'));
  app = await electron.launch({
    executablePath: found.path,
    args: [...(process.platform === 'linux' && process.getuid?.() === 0 ? ['--no-sandbox'] : []), root],
    env: { ...process.env, LANES_E2E: '1', LANES_DATA_DIR: dataDir, LANES_CORES: '4', LANES_TICK_MS: '500' },
  });
  page = await app.firstWindow();
});

test.afterAll(async ({ browserName: _unused }, testInfo) => {
  testInfo.setTimeout(600_000);
  if ('missing' in found) return;
  if (app) await app.close().catch(() => {});
  fs.rmSync(dataDir, { recursive: true, force: true });
  abi('node');
});

test('launches with its tray menu', async () => {
  const tray = hooks(app);
  await expect.poll(tray.ids, { timeout: 30_000 }).toContain('lane:worker');
  const ids = await tray.ids();
  for (const id of ['open', 'quit', 'pause-all', 'lane:worker:cap', 'lane:worker:cap:0', 'lane:worker:cap:3']) expect(ids).toContain(id);
});

test('the window is sandboxed and has only window.lanes', async () => {
  await hooks(app).click('open');
  await page.waitForLoadState('domcontentloaded');
  expect(page.url()).toBe('app://lanes/index.html');
  const surface = await page.evaluate(() => {
    const g = globalThis as unknown as Record<string, unknown>;
    return { lanes: typeof g.lanes, require: typeof g.require, process: typeof g.process };
  });
  expect(surface).toEqual({ lanes: 'object', require: 'undefined', process: 'undefined' });
});

test('a cap set from the tray reaches the engine and the window', async () => {
  const tray = hooks(app);
  expect(await tray.click('lane:worker:cap:2')).toBe(true);
  const capInWindow = () =>
    page.evaluate(async () => {
      const result = await (globalThis as unknown as { lanes: IpcBridge }).lanes.request('status', {});
      return result.ok ? (result.value as Status).lanes.find((l) => l.name === 'worker')?.cap : result.error.message;
    });
  await expect.poll(capInWindow, { timeout: 10_000 }).toBe(2);
  await expect.poll(async () => (await tray.item('lane:worker:cap:2'))?.checked, { timeout: 5_000 }).toBe(true);
});

test('quits cleanly from the tray', async () => {
  const exited = new Promise<number | null>((resolve) => app.process().once('exit', (code) => resolve(code)));
  await hooks(app).click('quit');
  expect(await exited).toBe(0);
});
