// The shell's small pure rules: event coalescing, power events, the app:// origin and the files
// served there, link policy, IPC results, and the Linux autostart entry.
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { autostartEntry, autostartFile, loginCommand, quoteExecArg, startedAtLogin } from '../../electron/shell/autostart.js';
import { coalesce, type Timers } from '../../electron/shell/coalesce.js';
import { errorBody, toResult } from '../../electron/shell/ipc-requests.js';
import { powerAction } from '../../electron/shell/power.js';
import { appPathname, linkPolicy, permissionAllowed } from '../../electron/shell/renderer-origin.js';
import { WINDOW_CSP, contentTypeFor, windowPath } from '../../electron/api/window-files.js';
import { LanesError } from '../../shared/errors.js';
import { isRequestName } from '../../shared/requests.js';
import { loginShellPath, mergePath, pathFromShellOutput } from '../../electron/shell/login-path.js';

describe('coalesce', () => {
  function manual() {
    const queue: (() => void)[] = [];
    const timers: Timers = { setTimeout: (fn) => queue.push(fn), clearTimeout: () => queue.splice(0) };
    return { timers, fire: () => queue.splice(0).forEach((fn) => fn()), queue };
  }
  it('runs once per burst, and schedules nothing while idle', () => {
    const { timers, fire, queue } = manual();
    const run = vi.fn();
    const c = coalesce(run, 250, timers);
    expect(queue).toHaveLength(0);
    for (let i = 0; i < 1000; i++) c.request();
    expect(queue).toHaveLength(1);
    fire();
    expect(run).toHaveBeenCalledTimes(1);
    c.request();
    c.flush();
    expect(run).toHaveBeenCalledTimes(2);
    c.flush();
    expect(run).toHaveBeenCalledTimes(2);
  });
});

describe('powerAction', () => {
  it.each([
    ['suspend', 'linux', { type: 'none' }],
    ['resume', 'darwin', { type: 'refresh' }],
    ['unlock-screen', 'win32', { type: 'refresh' }],
    ['shutdown', 'linux', { type: 'quit', graceMs: 4000, holdShutdown: true }],
    ['shutdown', 'darwin', { type: 'quit', graceMs: 4000, holdShutdown: true }],
    ['shutdown', 'win32', { type: 'quit', graceMs: 4000, holdShutdown: false }],
  ] as const)('%s on %s', (event, platform, expected) => {
    expect(powerAction(event, platform, 4000)).toEqual(expected);
  });
});

describe('app:// origin', () => {
  const root = path.resolve('/app/dist/renderer');
  // The protocol handler's two steps: our origin first, then the one resolver the API uses too.
  const fileFor = (url: string) => {
    const pathname = appPathname(url);
    return pathname === null ? null : windowPath(root, pathname);
  };
  it.each([
    ['app://lanes/', path.join(root, 'index.html')],
    ['app://lanes/index.html', path.join(root, 'index.html')],
    ['app://lanes/assets/index-abc.js?x=1#y', path.join(root, 'assets', 'index-abc.js')],
    ['app://lanes/assets/a%20b.css', path.join(root, 'assets', 'a b.css')],
    ['app://lanes/../../etc/passwd', path.join(root, 'etc', 'passwd')],
    // The URL parser folds encoded dot segments before we see them: still inside the root.
    ['app://lanes/%2e%2e/%2e%2e/etc/passwd', path.join(root, 'etc', 'passwd')],
    ['app://lanes/..%2fsecret', null],
    ['app://lanes/a%00b.js', null],
    ['app://other/index.html', null],
    ['https://lanes/index.html', null],
    ['not a url', null],
  ])('%s', (url, expected) => {
    expect(fileFor(url)).toBe(expected);
  });

  it('serves types the page needs', () => {
    expect(contentTypeFor('x/index.html')).toMatch(/^text\/html/);
    expect(contentTypeFor('x/a.js')).toMatch(/^text\/javascript/);
    expect(contentTypeFor('x/a.bin')).toBe('application/octet-stream');
  });

  it('CSP allows scripts from our files only', () => {
    expect(WINDOW_CSP).toContain("default-src 'none'");
    expect(WINDOW_CSP).toContain("script-src 'self';");
    expect(WINDOW_CSP).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/);
  });

  it.each([
    ['app://lanes/index.html#/jobs', 'stay'],
    ['https://example.com/docs', 'external'],
    ['mailto:someone@example.com', 'external'],
    ['http://example.com', 'deny'],
    ['file:///etc/passwd', 'deny'],
    ['javascript:alert(1)', 'deny'],
    ['app://lanes.evil/index.html', 'deny'],
  ] as const)('link %s → %s', (url, expected) => {
    expect(linkPolicy(url)).toBe(expected);
  });
});

describe('web permissions', () => {
  it.each([
    ['clipboard-sanitized-write', 'app://lanes/index.html', true],
    ['clipboard-sanitized-write', 'app://lanes', true],
    ['clipboard-sanitized-write', 'https://example.com/', false],
    ['clipboard-read', 'app://lanes/index.html', false],
    ['notifications', 'app://lanes/index.html', false],
    ['media', 'app://lanes/index.html', false],
  ])('%s from %s → %s', (permission, url, allowed) => {
    expect(permissionAllowed(permission, url)).toBe(allowed);
  });
});

describe('IPC results', () => {
  it('keeps a LanesError\'s code, message and field', async () => {
    const result = await toResult(async () => {
      throw new LanesError('bad_request', 'cap must be 0..3', 'cap');
    });
    expect(result).toEqual({ ok: false, error: { code: 'bad_request', message: 'cap must be 0..3', field: 'cap' } });
  });
  it('wraps values and other errors', async () => {
    expect(await toResult(async () => 7)).toEqual({ ok: true, value: 7 });
    expect(errorBody(new Error('boom'))).toEqual({ code: 'internal', message: 'boom' });
  });
  it('knows the contract\'s request names only', () => {
    expect(isRequestName('setCap')).toBe(true);
    expect(isRequestName('toString')).toBe(false);
    expect(isRequestName(3)).toBe(false);
  });
});

describe('Linux autostart', () => {
  it('writes an XDG autostart entry with a quoted Exec line', () => {
    const entry = autostartEntry(['/opt/Lanes/lanes', '--login']);
    expect(entry).toContain('[Desktop Entry]');
    expect(entry).toContain('Exec=/opt/Lanes/lanes --login');
    expect(quoteExecArg('/home/a b/Lanes.AppImage')).toBe('"/home/a b/Lanes.AppImage"');
    expect(quoteExecArg('100%')).toBe('100%%');
    expect(quoteExecArg('a"$b')).toBe('"a\\"\\$b"');
  });
  it('starts the AppImage file, the packaged binary, or electron with the app folder', () => {
    expect(loginCommand({ execPath: '/tmp/.mount/lanes', appImage: '/home/a/Lanes.AppImage', packaged: true, appPath: '/x' })).toEqual(['/home/a/Lanes.AppImage', '--login']);
    expect(loginCommand({ execPath: '/opt/Lanes/lanes', packaged: true, appPath: '/x' })).toEqual(['/opt/Lanes/lanes', '--login']);
    expect(loginCommand({ execPath: '/e/electron', packaged: false, appPath: '/src/lanes' })).toEqual(['/e/electron', '/src/lanes', '--login']);
  });
  it('honours XDG_CONFIG_HOME', () => {
    expect(autostartFile({ XDG_CONFIG_HOME: '/cfg' }, '/home/a')).toBe(path.join('/cfg', 'autostart', 'lanes.desktop'));
    expect(autostartFile({}, '/home/a')).toBe(path.join('/home/a', '.config', 'autostart', 'lanes.desktop'));
  });
  it('a login start stays in the tray', () => {
    expect(startedAtLogin(['lanes', '--login'], false)).toBe(true);
    expect(startedAtLogin(['lanes'], true)).toBe(true);
    expect(startedAtLogin(['lanes'], false)).toBe(false);
  });
});

describe('login shell PATH (macOS apps start with a bare one)', () => {
  it('reads the PATH between the markers, ignoring what shells print around it', () => {
    expect(pathFromShellOutput('Last login: Mon\n__LANES_PATH__/opt/homebrew/bin:/usr/bin__LANES_PATH__')).toBe('/opt/homebrew/bin:/usr/bin');
    expect(pathFromShellOutput('no markers')).toBeNull();
    expect(pathFromShellOutput('__LANES_PATH____LANES_PATH__')).toBeNull();
  });
  it('puts the shell\'s entries first, keeps ours, repeats none', () => {
    expect(mergePath('/opt/homebrew/bin:/usr/bin', '/usr/bin:/bin:/usr/sbin')).toBe('/opt/homebrew/bin:/usr/bin:/bin:/usr/sbin');
    expect(mergePath('/a', undefined)).toBe('/a');
  });
  it('asks a real shell', async () => {
    const found = await loginShellPath('/bin/sh');
    expect(found).toBeTruthy();
  });
});
