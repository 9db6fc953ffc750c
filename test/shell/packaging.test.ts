// The packaging check that needs no download: every file the app loads at run time is matched by
// electron-builder.yml's `files`, exists in the build output, and nothing main imports is left out.
// Run after `npm run build` (npm test does that first).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Configuration } from 'electron-builder';
// electron-builder's own schema check, the one `npm run dist` runs first (no download needed).
import { validateConfiguration } from 'app-builder-lib/out/util/config/config.js';
import { DebugLogger } from 'builder-util';
import yaml from 'js-yaml';
import { minimatch } from 'minimatch';
import { describe, expect, it } from 'vitest';
import { RUNTIME_FILES } from '../../electron/shell/paths.js';
import { TRAY_ICON_STATES, trayIconFile } from '../../electron/shell/tray-look.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const config = yaml.load(fs.readFileSync(path.join(root, 'electron-builder.yml'), 'utf8')) as Configuration;
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  main: string;
  productName: string;
  dependencies: Record<string, string>;
};

const patterns = (Array.isArray(config.files) ? config.files : [config.files]).filter((p): p is string => typeof p === 'string');
const include = patterns.filter((p) => !p.startsWith('!'));
const exclude = patterns.filter((p) => p.startsWith('!')).map((p) => p.slice(1));
const matches = (glob: string, file: string) => minimatch(file, glob, { dot: true });
/** electron-builder's rule: matched by an include and by no exclude. */
const packaged = (file: string) => include.some((g) => matches(g, file)) && !exclude.some((g) => matches(g, file));
/** Production dependencies are added by electron-builder itself; only excludes can drop them. */
const moduleKept = (name: string) => !exclude.some((g) => matches(g, `node_modules/${name}/package.json`));

function walk(dir: string): string[] {
  if (!fs.existsSync(path.join(root, dir))) return [];
  return fs.readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
    .map((f) => path.posix.join(dir, f.split(path.sep).join('/')))
    .filter((f) => fs.statSync(path.join(root, f)).isFile());
}

function requireBuilt(file: string): void {
  if (!fs.existsSync(path.join(root, file))) throw new Error(`${file} is missing: run \`npm run build\` first`);
}

const runtimeFiles = [
  'package.json',
  RUNTIME_FILES.main,
  RUNTIME_FILES.preload,
  RUNTIME_FILES.workerEntry,
  RUNTIME_FILES.workerBundle,
  RUNTIME_FILES.rendererIndex,
  ...walk('migrations').filter((f) => f.endsWith('.sql')),
];

describe('electron-builder.yml', () => {
  it('is valid for electron-builder\'s schema', async () => {
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
  });

  it('sets the fuses that keep the packaged binary from being used as plain Node or debugged', () => {
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      onlyLoadAppFromAsar: true,
      enableEmbeddedAsarIntegrityValidation: true,
      enableCookieEncryption: true,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  it('names the app and builds AppImage + deb, dmg, nsis', () => {
    expect(config.appId).toBe('app.lanes.desktop');
    expect(config.productName).toBe(pkg.productName);
    expect(config.linux?.target).toEqual(['AppImage', 'deb']);
    expect(config.mac?.target).toEqual(['dmg']);
    expect(config.win?.target).toEqual(['nsis']);
  });

  it('package.json main is the compiled shell', () => {
    expect(pkg.main).toBe(RUNTIME_FILES.main);
  });

  it.each(runtimeFiles)('packs %s, and the build produced it', (file) => {
    expect(packaged(file), `${file} is not matched by electron-builder.yml files`).toBe(true);
    requireBuilt(file);
  });

  it('packs at least one migration', () => {
    expect(runtimeFiles.filter((f) => f.startsWith('migrations/')).length).toBeGreaterThan(0);
  });

  it('packs the whole renderer build and every compiled module main can load', () => {
    requireBuilt(RUNTIME_FILES.rendererIndex);
    const renderer = walk('dist/renderer').filter((f) => !f.endsWith('.map'));
    const code = [...walk('dist/electron'), ...walk('dist/shared')].filter((f) => /\.c?js$/.test(f));
    expect(code.length).toBeGreaterThan(10);
    for (const file of [...renderer, ...code]) expect(packaged(file), file).toBe(true);
    expect(packaged('dist/test/shell/quit.test.js')).toBe(false);
  });

  it('keeps every package the compiled code imports, and lists it as a dependency', () => {
    const code = [...walk('dist/electron'), ...walk('dist/shared')].filter((f) => /\.c?js$/.test(f));
    const bare = new Set<string>();
    for (const file of code) {
      const text = fs.readFileSync(path.join(root, file), 'utf8');
      for (const m of text.matchAll(/(?:from\s+|import\s*\(\s*|require\(\s*)['"]([^'"./][^'"]*)['"]/g)) {
        const spec = m[1]!;
        if (spec.startsWith('node:') || spec === 'electron') continue;
        bare.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
      }
    }
    for (const name of bare) {
      expect(pkg.dependencies, `${name} is imported at run time but is not a dependency`).toHaveProperty([name]);
      expect(moduleKept(name), `${name} is excluded from the app`).toBe(true);
    }
  });

  it('unpacks better-sqlite3\'s compiled module from the asar', () => {
    const unpack = ([] as string[]).concat(config.asarUnpack ?? []);
    const binary = 'node_modules/better-sqlite3/build/Release/better_sqlite3.node';
    expect(unpack.some((g) => matches(g, binary))).toBe(true);
    expect(exclude.some((g) => matches(g, 'node_modules/better-sqlite3/build/Release/.lanes-abi'))).toBe(true);
  });

  it('packs every tray icon the tray can ask for, and the installers\' icons exist', () => {
    for (const platform of ['darwin', 'win32', 'linux'] as const) {
      for (const state of TRAY_ICON_STATES) {
        const base = path.posix.join(RUNTIME_FILES.iconsDir, trayIconFile(state, platform));
        const files = platform === 'linux' ? [base] : [base, base.replace(/\.png$/, '@2x.png')];
        for (const file of files) {
          expect(packaged(file), file).toBe(true);
          expect(fs.existsSync(path.join(root, file)), file).toBe(true);
        }
      }
    }
    for (const icon of [config.linux?.icon, config.mac?.icon, config.win?.icon]) {
      expect(icon && fs.existsSync(path.join(root, icon)), String(icon)).toBe(true);
    }
  });
});
