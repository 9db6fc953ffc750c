// The shell's real wiring (main.ts and every module it sets up) under a recorded fake of Electron:
// the engine and the local API run for real in this process, workers are real processes started
// through the utility-process adapter, and the window's IPC, the tray and quitting are driven the
// way Electron would drive them. Needs `npm run build` (the worker runtime and the renderer).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EventEmitter } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { IPC, type Result } from '../../shared/client/ipc.js';
import type { LanesEvent } from '../../shared/events.js';
import type { Status } from '../../shared/model.js';
import { openEngine, type Engine } from '../../electron/engine/index.js';
import { findItem } from '../../electron/shell/tray-menu.js';
import { connect } from '../../electron/cli/connect.js';
import { workerEntry } from '../../electron/paths/app-files.js';
import { recorded, app, type FakeTray } from './fake-electron.js';
import { quietMachine, realMachine } from '../support/machine.js';

vi.mock('electron', () => import('./fake-electron.js'));

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Made in beforeAll: loading the file (`vitest list`) leaves nothing behind. */
let tmp = '';
const ourPage = { senderFrame: { url: 'app://lanes/index.html' } };

function tray(): FakeTray {
  const t = recorded.trays[0];
  if (!t) throw new Error('no tray yet');
  return t;
}
async function invoke<T>(name: string, input: unknown, event: unknown = ourPage): Promise<Result<T>> {
  const handler = recorded.invokeHandlers.get(IPC.request);
  if (!handler) throw new Error('no request handler');
  return (await handler(event, name, input)) as Result<T>;
}
/** What the window may not ask (adding lanes and jobs) goes through the engine's socket, as the CLI would. */
function owner() {
  return connect(path.join(tmp, 'data')).client;
}
async function status(): Promise<Status> {
  const result = await invoke<Status>('status', {});
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

beforeAll(async () => {
  for (const file of ['dist/electron/worker/main.js', 'dist/renderer/index.html']) {
    if (!fs.existsSync(path.join(root, file))) throw new Error(`${file} is missing: run \`npm run build\` first`);
  }
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lanes-shell-'));
  // The app's own engine reads the machine as the app does; these make what it reads not move its sizing.
  Object.assign(process.env, { LANES_DATA_DIR: path.join(tmp, 'data'), LANES_CORES: '4', LANES_MEMORY: '8G', LANES_POWER: 'ac', LANES_TICK_MS: '200', XDG_CONFIG_HOME: path.join(tmp, 'config') });
  // Another engine (a `lanes daemon`, say) already holds the data directory when the app starts.
  fs.mkdirSync(path.join(tmp, 'data'), { recursive: true });
  blocker = await openEngine({ dataDir: path.join(tmp, 'data'), cores: 4, tickMs: 200, log: () => {}, machineReaders: quietMachine() });
  await import('../../electron/shell/main.js');
});

let blocker: Engine;
// The shell's real wiring is under test, machine readers and all (the overrides above fix what they decide).
beforeEach(() => realMachine());

afterAll(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe('the desktop shell, wired', () => {
  it('shows why the engine is not running, and starts it on "Try again" once it can', async () => {
    await vi.waitFor(() => expect(findItem(tray().template, 'state')?.label).toMatch(/^Lanes is not running: A Lanes engine is already running/), { timeout: 20_000 });
    expect(String((tray().image as { file: string }).file)).toMatch(/tray-error/);
    expect(await invoke('status', {})).toMatchObject({ ok: false, error: { code: 'internal' } });
    await blocker.stop({ graceMs: 0 });
    findItem(tray().template, 'retry')?.click?.();
    await vi.waitFor(() => expect(findItem(tray().template, 'lane:worker')).toBeDefined(), { timeout: 20_000 });
    expect(String((tray().image as { file: string }).file)).toMatch(/tray-idle/);
  });

  it('uses the shared data directory and opens its window, sandboxed, on a manual start', () => {
    expect(recorded.paths.get('userData')).toBe(path.join(tmp, 'data'));
    expect(recorded.paths.get('sessionData')).toBe(path.join(tmp, 'data', 'electron'));
    const win = recorded.windows[0];
    expect(win?.url).toBe('app://lanes/index.html');
    expect(win?.options.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false });
    expect(fs.existsSync(String(win?.options.webPreferences?.preload))).toBe(true);
  });

  it('closing the window hides it; the app stays', () => {
    const win = recorded.windows[0]!;
    expect(win.tryClose()).toBe(false);
    expect(win.visible).toBe(false);
    expect(recorded.exitCode).toBeNull();
  });

  it('serves the window from app://lanes with the CSP, and nothing outside it', async () => {
    const handler = recorded.protocolHandlers.get('app')!;
    const page = await handler(new Request('app://lanes/index.html'));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect((await handler(new Request('app://lanes/..%2f..%2fpackage.json'))).status).toBe(404);
  });

  it('blocks navigation away and new windows', () => {
    const contents = Object.assign(new EventEmitter(), { opener: null as null | ((d: { url: string }) => { action: string }), setWindowOpenHandler(fn: (d: { url: string }) => { action: string }) { this.opener = fn; } });
    app.emit('web-contents-created', {}, contents);
    let prevented = false;
    contents.emit('will-navigate', { preventDefault: () => (prevented = true) }, 'https://example.com/');
    expect(prevented).toBe(true);
    expect(contents.opener?.({ url: 'https://example.com/' })).toEqual({ action: 'deny' });
  });

  it('answers the window\'s requests as Result values, and only the window\'s', async () => {
    expect((await status()).lanes.map((l) => l.name)).toContain('worker');
    const refused = await invoke('status', {}, { senderFrame: { url: 'https://evil.example/' } });
    expect(refused).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    const bad = await invoke('setCap', { lane: 'worker', cap: -1 });
    expect(bad).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    expect(await invoke('nope', {})).toMatchObject({ ok: false, error: { code: 'bad_request' } });
  });

  it('a cap clicked in the tray is set in the engine and shown checked', async () => {
    const item = findItem(tray().template, 'lane:worker:cap:2');
    item?.click?.();
    await vi.waitFor(async () => expect((await status()).lanes.find((l) => l.name === 'worker')?.cap).toBe(2));
    await vi.waitFor(() => expect(findItem(tray().template, 'lane:worker:cap:2')?.checked).toBe(true), { timeout: 5_000 });
  });

  it('a cap that cannot be set says why, and the menu is handed back fresh', async () => {
    await owner().call('addLane', { name: 'extra' });
    await vi.waitFor(() => expect(findItem(tray().template, 'lane:extra')).toBeDefined(), { timeout: 5_000 });
    // Any cap but the current one (clicking the current one does nothing).
    const stale = findItem(tray().template, 'lane:extra')?.submenu?.find((item) => item.id?.startsWith('lane:extra:cap:') && !item.checked);
    await owner().call('removeLane', { name: 'extra' });
    stale?.click?.();
    await vi.waitFor(() => expect(recorded.notifications.map((n) => n.title)).toContain("Could not set extra's cap"));
    await vi.waitFor(() => expect(findItem(tray().template, 'lane:extra')).toBeUndefined(), { timeout: 5_000 });
  });

  it('runs jobs in workers started through the utility-process adapter; tray and window hear of it', async () => {
    const sent: { channel: string; id: string; args: unknown[] }[] = [];
    const sender = Object.assign(new EventEmitter(), {
      id: 1,
      isDestroyed: () => false,
      send: (channel: string, id: string, ...args: unknown[]) => sent.push({ channel, id, args }),
    });
    recorded.ipcListeners.get(IPC.subscribe)?.({ ...ourPage, sender }, { id: 'w1', since: 0 });
    // From now: told where now is before any event.
    expect(sent[0]).toMatchObject({ channel: IPC.start, id: 'w1', args: [expect.any(Number), false] });
    const eventsSent = () => sent.flatMap((m) => (m.channel === IPC.events ? (m.args[0] as LanesEvent[]) : []));

    await owner().call('addJob', { lane: 'worker', argv: [process.execPath, '-e', 'setTimeout(() => {}, 1500)'] });
    // The window may not queue batches; the CLI and the API do.
    expect(await invoke('addJobs', { jobs: [{ argv: ['true'] }] })).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    await vi.waitFor(() => expect(tray().tooltip).toMatch(/^Lanes — 1 running/), { timeout: 15_000 });
    expect(String((tray().image as { file: string }).file)).toMatch(/tray-working/);
    expect(recorded.utility[0]).toMatchObject({ entry: workerEntry, serviceName: expect.stringContaining('worker') });
    await vi.waitFor(() => expect(eventsSent().some((e) => e.type === 'job')).toBe(true));
    await vi.waitFor(async () => expect((await status()).lanes.find((l) => l.name === 'worker')?.succeeded).toBe(1), { timeout: 15_000 });

    // A window that reconnects with the last seq it saw gets what it missed, in order, at once.
    const since = eventsSent()[0]!.seq;
    const replayed: LanesEvent[] = [];
    const starts: unknown[][] = [];
    const late = Object.assign(new EventEmitter(), {
      id: 2,
      isDestroyed: () => false,
      send: (channel: string, _id: string, ...args: unknown[]) => (channel === IPC.events ? replayed.push(...(args[0] as LanesEvent[])) : starts.push(args)),
    });
    recorded.ipcListeners.get(IPC.subscribe)?.({ ...ourPage, sender: late }, { id: 'w2', since });
    expect(starts).toEqual([[since, false]]);
    expect(replayed.length).toBeGreaterThan(0);
    expect(replayed[0]?.seq).toBe(since + 1);
    expect(replayed.map((e) => e.seq)).toEqual([...replayed.map((e) => e.seq)].sort((a, b) => a - b));
    recorded.ipcListeners.get(IPC.subscribe)?.({ ...ourPage, sender: late }, { id: 'w2', stop: true });

    // A seq this run of the engine never gave out (an earlier run's) is answered with a reset.
    recorded.ipcListeners.get(IPC.subscribe)?.({ ...ourPage, sender: late }, { id: 'w3', since: 1 });
    expect(starts[1]).toEqual([expect.any(Number), true]);
    recorded.ipcListeners.get(IPC.subscribe)?.({ ...ourPage, sender: late }, { id: 'w3', stop: true });
  });

  it('Pause all holds the engine and says so at the top with Resume; Resume lets work go on', async () => {
    findItem(tray().template, 'pause-all:hour')?.click?.();
    await vi.waitFor(() => expect(findItem(tray().template, 'paused')?.label).toMatch(/^Paused until \d\d:\d\d$/), { timeout: 5_000 });
    expect((await status()).paused).toMatchObject({ until: expect.any(Number) });
    expect(tray().template[0]?.id).toBe('paused');
    expect(String((tray().image as { file: string }).file)).toMatch(/tray-paused/);
    findItem(tray().template, 'resume')?.click?.();
    await vi.waitFor(() => expect(findItem(tray().template, 'pause-all')).toBeDefined(), { timeout: 5_000 });
    expect((await status()).paused).toBeNull();
  });

  it('a finished batch and its failures are one notification, not one per job', async () => {
    const before = recorded.notifications.length;
    const jobs = Array.from({ length: 12 }, (_, i) => ({ lane: 'worker', argv: [process.execPath, '-e', `process.exit(${i < 3 ? 1 : 0})`], maxAttempts: 1 }));
    await owner().call('addJobs', { jobs });
    // The single job of a test above may still count: it finished less than the settling time before.
    const done = () => recorded.notifications.slice(before).find((n) => /^Done: 1[23] jobs in worker$/.test(n.title ?? ''));
    await vi.waitFor(() => expect(done()).toBeDefined(), { timeout: 30_000, interval: 200 });
    const said = recorded.notifications.slice(before);
    expect(done()?.body).toMatch(/^(9|10) succeeded, 3 failed — about \d+ s\.$/);
    // At most one notice about the failures besides the batch's own, never three.
    expect(said.filter((n) => /failed/.test(n.title ?? '')).length).toBeLessThanOrEqual(1);
  });

  it('quitting drains, removes the tray and exits 0', async () => {
    app.quit();
    expect(recorded.exitCode).toBeNull();
    expect(findItem(tray().template, 'state')?.label).toMatch(/^Stopping/);
    await vi.waitFor(() => expect(recorded.exitCode).toBe(0), { timeout: 30_000 });
    expect(tray().destroyed).toBe(true);
    expect(fs.existsSync(path.join(tmp, 'data', 'logs', 'app.log'))).toBe(true);
  });
});
