// What the installers do with the command line, checked without building one: every installer
// carries the standalone `lanes` and puts it on PATH, no GUI executable is named `lanes`, and the
// deb's maintainer scripts are valid sh that, run into a scratch root (DPKG_ROOT, as dpkg gives
// them), make `lanes` on that root's PATH the CLI, install the completions, and take it all away.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Configuration } from 'electron-builder';
import yaml from 'js-yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { loginCommand } from '../../electron/shell/autostart.js';
import { cliInstallPlan } from '../../electron/shell/cli-install.js';
import { ROOT, tempDataDir } from '../support/daemon.js';
import { ensureExe } from '../support/exe.js';

const config = yaml.load(fs.readFileSync(path.join(ROOT, 'electron-builder.yml'), 'utf8')) as Configuration;
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string; productName: string };
const PRODUCT_DIR = 'Lanes';

/** electron-builder's names for the window's binary, as its packagers work them out. */
const guiName = {
  linux: config.linux?.executableName ?? config.executableName ?? pkg.name.toLowerCase(),
  win: config.win?.executableName ?? config.executableName ?? pkg.productName,
  mac: config.mac?.executableName ?? config.executableName ?? pkg.productName,
};

/**
 * A maintainer script as electron-builder writes it (app-builder-lib's writeConfigFile): each
 * `${name}` replaced, and a name it does not know is an error there, so it is one here too.
 */
function render(file: string): string {
  const macros: Record<string, string> = { executable: guiName.linux, sanitizedProductName: PRODUCT_DIR, productFilename: PRODUCT_DIR };
  return fs.readFileSync(path.join(ROOT, file), 'utf8').replace(/\${([a-zA-Z]+)}/g, (_, name: string) => {
    if (!(name in macros)) throw new Error(`${file}: electron-builder knows no macro ${name}`);
    return macros[name]!;
  });
}

const resources = (list: Configuration['extraResources']) => ([] as unknown[]).concat(list ?? []) as { from: string; to: string; filter?: string[] }[];

describe('the installers and the command line', () => {
  let exe = '';
  beforeAll(async () => {
    exe = await ensureExe();
  }, 120_000);

  it('names no GUI executable `lanes`; Windows, which ignores case, not `Lanes` either', () => {
    expect(guiName.linux).toBe('lanes-app');
    expect(guiName.win.toLowerCase()).not.toBe('lanes');
    // macOS: the window's binary is inside Lanes.app, a folder no PATH holds.
    expect(guiName.mac).not.toBe('lanes');
  });

  it('starts at login whatever the window\'s program is named: its own path, never a name', () => {
    const gui = `/opt/${PRODUCT_DIR}/${guiName.linux}`;
    expect(loginCommand({ execPath: gui, packaged: true, appPath: '/unused' })).toEqual([gui, '--login']);
    // Nothing in the shell names the window's program: the desktop entry and autostart follow execPath.
    for (const file of fs.readdirSync(path.join(ROOT, 'electron', 'shell')).filter((f) => f.endsWith('.ts'))) {
      expect(fs.readFileSync(path.join(ROOT, 'electron', 'shell', file), 'utf8'), file).not.toContain(guiName.linux);
    }
  });

  it('carries the standalone lanes in every installer, alone in resources/bin', () => {
    const cli = resources(config.extraResources).find((r) => r.from === 'dist/exe');
    expect(cli).toEqual({ from: 'dist/exe', to: 'bin', filter: ['lanes', 'lanes.exe'] });
    expect(fs.existsSync(exe)).toBe(true);
    expect(fs.readdirSync(path.dirname(exe))).toEqual([path.basename(exe)]);
    // No platform's own list leaves it out.
    for (const platform of [config.linux, config.mac, config.win]) expect(resources(platform?.extraResources).every((r) => !r.to.startsWith('bin'))).toBe(true);
  });

  it('puts resources\\bin on the user PATH from nsis, and takes it off at uninstall', () => {
    expect(config.nsis?.include).toBe('electron/packaging/installer.nsh');
    const nsh = fs.readFileSync(path.join(ROOT, config.nsis!.include!), 'utf8');
    expect(nsh).toMatch(/!macro customInstall\s+!insertmacro lanesUserPath add\s+!macroend/);
    expect(nsh).toMatch(/!macro customUnInstall[\s\S]*lanesUserPath remove[\s\S]*!macroend/);
    expect(nsh).toContain('"$INSTDIR\\resources\\bin"');
    const script = resources(config.win?.extraResources).find((r) => r.to === 'user-path.ps1');
    expect(script && fs.existsSync(path.join(ROOT, script.from))).toBe(true);
    expect(nsh).toContain('$INSTDIR\\resources\\user-path.ps1');
  });

  it('leaves the AppImage and the dmg to the tray, which offers to put it on PATH there and only there', () => {
    const facts = { packaged: true, bundledCli: '/app/resources/bin/lanes', home: '/home/ana', pathDirs: ['/usr/bin'], lanesOnPath: null };
    expect(cliInstallPlan({ ...facts, platform: 'linux', appImage: '/home/ana/Lanes.AppImage' }).kind).toBe('copy');
    expect(cliInstallPlan({ ...facts, platform: 'darwin', appImage: undefined }).kind).toBe('adminLink');
    expect(cliInstallPlan({ ...facts, platform: 'linux', appImage: undefined }).kind).toBe('none');
    expect(cliInstallPlan({ ...facts, platform: 'win32', appImage: undefined }).kind).toBe('none');
  });

  it('has deb maintainer scripts that are valid sh', () => {
    for (const file of [config.deb?.afterInstall, config.deb?.afterRemove]) {
      expect(file, 'deb.afterInstall and deb.afterRemove are set').toBeTruthy();
      const check = spawnSync('sh', ['-n'], { input: render(file!), encoding: 'utf8' });
      expect(check.status, `${file}: ${check.stderr}`).toBe(0);
    }
  });

  it('makes `lanes` on the installed PATH the CLI, and `lanes-app` the window; removal takes both away', () => {
    const scratch = tempDataDir('lanes-deb-');
    try {
      const root = scratch.dir;
      const app = path.join(root, 'opt', PRODUCT_DIR);
      fs.mkdirSync(path.join(app, 'resources', 'bin'), { recursive: true });
      fs.writeFileSync(path.join(app, guiName.linux), '#!/bin/sh\necho the window\n', { mode: 0o755 });
      fs.writeFileSync(path.join(app, 'chrome-sandbox'), '');
      fs.symlinkSync(exe, path.join(app, 'resources', 'bin', 'lanes'));
      const script = (file: string, ...args: string[]) => {
        const run = spawnSync('sh', ['-s', ...args], { input: render(file), encoding: 'utf8', env: { PATH: process.env.PATH, DPKG_ROOT: root } });
        expect(run.status, run.stderr).toBe(0);
        return run;
      };
      script(config.deb!.afterInstall!, 'configure');
      // A shell whose PATH is that root's /usr/bin only: what `lanes` is there.
      const onPath = (line: string) => spawnSync('/bin/sh', ['-c', line], { encoding: 'utf8', env: { PATH: path.join(root, 'usr', 'bin'), HOME: root } });
      expect(onPath('lanes --version').stdout).toBe(`${pkg.version}\n`);
      expect(onPath('lanes-app').stdout).toBe('the window\n');
      expect(fs.realpathSync(path.join(root, 'usr', 'bin', 'lanes'))).toBe(fs.realpathSync(exe));
      // The links are relative, so they hold inside the root and in / alike.
      expect(fs.readlinkSync(path.join(root, 'usr', 'bin', 'lanes'))).toBe(`../../opt/${PRODUCT_DIR}/resources/bin/lanes`);
      const bashCompletion = path.join(root, 'usr', 'share', 'bash-completion', 'completions', 'lanes');
      const zshCompletion = path.join(root, 'usr', 'share', 'zsh', 'vendor-completions', '_lanes');
      const complete = spawnSync('bash', ['-c', `source '${bashCompletion}' && complete -p lanes`], { encoding: 'utf8' });
      expect(complete.stdout).toBe('complete -o bashdefault -o default -F _lanes lanes\n');
      expect(fs.readFileSync(zshCompletion, 'utf8')).toMatch(/^#compdef lanes\n/);

      script(config.deb!.afterRemove!, 'remove');
      for (const gone of ['usr/bin/lanes', 'usr/bin/lanes-app', bashCompletion, zshCompletion]) {
        expect(fs.existsSync(path.resolve(root, gone)) || fs.lstatSync(path.resolve(root, gone), { throwIfNoEntry: false }), gone).toBeFalsy();
      }
    } finally {
      scratch.remove();
    }
  });

  it('leaves another package\'s /usr/bin/lanes alone, and says where the CLI is', () => {
    const scratch = tempDataDir('lanes-deb-');
    try {
      const root = scratch.dir;
      fs.mkdirSync(path.join(root, 'usr', 'bin'), { recursive: true });
      fs.mkdirSync(path.join(root, 'opt', PRODUCT_DIR, 'resources', 'bin'), { recursive: true });
      fs.symlinkSync(exe, path.join(root, 'opt', PRODUCT_DIR, 'resources', 'bin', 'lanes'));
      fs.writeFileSync(path.join(root, 'usr', 'bin', 'lanes'), '#!/bin/sh\necho someone else\n', { mode: 0o755 });
      const run = spawnSync('sh', ['-s', 'configure'], { input: render(config.deb!.afterInstall!), encoding: 'utf8', env: { PATH: process.env.PATH, DPKG_ROOT: root } });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stderr).toContain(`the Lanes command line is /opt/${PRODUCT_DIR}/resources/bin/lanes`);
      expect(fs.readFileSync(path.join(root, 'usr', 'bin', 'lanes'), 'utf8')).toContain('someone else');
      const removed = spawnSync('sh', ['-s', 'remove'], { input: render(config.deb!.afterRemove!), encoding: 'utf8', env: { PATH: process.env.PATH, DPKG_ROOT: root } });
      expect(removed.status, removed.stderr).toBe(0);
      expect(fs.existsSync(path.join(root, 'usr', 'bin', 'lanes'))).toBe(true);
    } finally {
      scratch.remove();
    }
  });
});
