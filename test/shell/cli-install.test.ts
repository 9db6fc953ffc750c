// "Install command line tool…": when the tray offers it (a table of platforms and PATHs), what
// it does (a real copy into a scratch home, run afterwards; the macOS admin script's quoting),
// and the item and its click in the tray.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { cliInstallPlan, installedWords, macAdminScript, MAC_CLI_LINK, type CliInstallFacts } from '../../electron/shell/cli-install.js';
import { findOnPath, runCliInstall } from '../../electron/shell/cli-install-run.js';
import { createShellStore } from '../../electron/shell/shell-state.js';
import { trayActions } from '../../electron/shell/tray-actions.js';
import { findItem, itemId, trayMenuModel } from '../../electron/shell/tray-menu.js';
import { tempDataDir } from '../support/daemon.js';
import { lane, shell, status } from './fixtures.js';

const base: CliInstallFacts = {
  platform: 'linux',
  packaged: true,
  appImage: '/home/ana/Apps/Lanes-0.1.0.AppImage',
  bundledCli: '/tmp/.mount_Lanes1/resources/bin/lanes',
  home: '/home/ana',
  pathDirs: ['/home/ana/.local/bin', '/usr/bin'],
  lanesOnPath: null,
};

describe('whether and how to install the command line tool', () => {
  it.each<[string, Partial<CliInstallFacts>, string]>([
    ['AppImage, ~/.local/bin on PATH: a copy there', {}, 'copy'],
    ['AppImage, `lanes` already on PATH', { lanesOnPath: '/usr/bin/lanes' }, 'none'],
    ['deb: the package linked it', { appImage: undefined }, 'none'],
    ['macOS: a link after the admin prompt', { platform: 'darwin', appImage: undefined, bundledCli: '/Applications/Lanes.app/Contents/Resources/bin/lanes' }, 'adminLink'],
    ['Windows: the installer did it', { platform: 'win32', appImage: undefined }, 'none'],
    ['a checkout: nothing', { packaged: false }, 'none'],
  ])('%s', (_, change, kind) => {
    expect(cliInstallPlan({ ...base, ...change }).kind).toBe(kind);
  });

  it('copies from an AppImage (whose files vanish when it quits) and says when ~/.local/bin is not on PATH', () => {
    expect(cliInstallPlan(base)).toEqual({ kind: 'copy', from: base.bundledCli, to: '/home/ana/.local/bin/lanes', onPath: true });
    const off = cliInstallPlan({ ...base, pathDirs: ['/usr/bin'] });
    expect(off).toMatchObject({ onPath: false });
    expect(installedWords(off)).toMatch(/not on your PATH yet/);
    expect(installedWords(cliInstallPlan(base))).toMatch(/in \/home\/ana\/\.local\/bin: try `lanes status`/);
  });

  it('links /usr/local/bin/lanes on macOS with every path quoted by AppleScript itself', () => {
    const plan = cliInstallPlan({ ...base, platform: 'darwin', bundledCli: '/Applications/Ana "Q" \\ Apps/Lanes.app/Contents/Resources/bin/lanes' });
    expect(plan).toMatchObject({ kind: 'adminLink', to: MAC_CLI_LINK });
    const script = macAdminScript(plan as Extract<typeof plan, { kind: 'adminLink' }>);
    expect(script).toContain('quoted form of "/Applications/Ana \\"Q\\" \\\\ Apps/Lanes.app/Contents/Resources/bin/lanes"');
    expect(script).toMatch(/with administrator privileges$/);
  });
});

describe('installing it, for real, into a scratch home', () => {
  const home = tempDataDir('lanes-home-');
  afterAll(() => home.remove());

  it('copies the CLI into ~/.local/bin, runnable, and finds it on PATH afterwards', async () => {
    const bundled = path.join(home.dir, 'mount', 'resources', 'bin', 'lanes');
    fs.mkdirSync(path.dirname(bundled), { recursive: true });
    fs.writeFileSync(bundled, '#!/bin/sh\necho the standalone lanes "$@"\n', { mode: 0o755 });
    const bin = path.join(home.dir, '.local', 'bin');
    const facts = { ...base, bundledCli: bundled, home: home.dir, pathDirs: [bin], lanesOnPath: findOnPath([bin]) };
    expect(facts.lanesOnPath).toBeNull();
    const plan = cliInstallPlan(facts);
    expect(await runCliInstall(plan)).toMatch(/try `lanes status`/);
    expect(spawnSync('lanes', ['--version'], { encoding: 'utf8', env: { PATH: `${bin}:/usr/bin:/bin` } }).stdout).toBe('the standalone lanes --version\n');
    expect(fs.readdirSync(bin)).toEqual(['lanes']);
    // Once there, the tray stops offering it.
    expect(cliInstallPlan({ ...facts, lanesOnPath: findOnPath([bin]) }).kind).toBe('none');
  });
});

describe('the tray item', () => {
  const idle = shell(status([lane('worker')]));

  it('is in the menu only while it is offered', () => {
    expect(findItem(trayMenuModel({ ...idle, installCli: true }, 0), itemId.installCli)).toMatchObject({ label: 'Install command line tool…', action: { type: 'installCli' } });
    expect(findItem(trayMenuModel(idle, 0), itemId.installCli)).toBeUndefined();
  });

  it('says what it did, or why it could not, and asks again whether to offer it', async () => {
    const store = createShellStore({ ...idle, installCli: true });
    const deps = {
      client: () => null,
      retry: vi.fn(),
      store,
      login: { supported: true, isOn: () => false, set: vi.fn() },
      openWindow: vi.fn(),
      quit: vi.fn(),
      quitNow: vi.fn(),
      warn: vi.fn(),
      tell: vi.fn(),
      installCli: vi.fn(async () => '`lanes` is in ~/.local/bin'),
      cliOffered: vi.fn(() => false),
      log: vi.fn(),
    };
    expect(await trayActions(deps)({ type: 'installCli' })).toBe('done');
    expect(deps.tell).toHaveBeenCalledWith('Command line tool installed', '`lanes` is in ~/.local/bin');
    expect(store.get().installCli).toBe(false);

    store.set({ installCli: true });
    deps.installCli.mockRejectedValueOnce(new Error('cancelled'));
    deps.cliOffered.mockReturnValueOnce(true);
    expect(await trayActions(deps)({ type: 'installCli' })).toBe('failed');
    expect(deps.warn).toHaveBeenCalledWith('Could not install the command line tool', 'cancelled');
    expect(store.get().installCli).toBe(true);
  });
});
