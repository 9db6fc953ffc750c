// The shell stays thin: at most 600 lines, counted over every file under electron/ that imports
// Electron (type-only imports included), so decisions keep moving into modules tested under Node
// instead of accumulating beside Electron's objects. A comment that mentions require('electron')
// is not an import.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const ELECTRON_LINE_BUDGET = 600;

/** Any static, type-only, side-effect, dynamic or CommonJS import of electron, outside comments. */
const importsElectron = (text: string) => {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  return /\bfrom\s*['"]electron['"]|\bimport\s*['"]electron['"]|\b(?:require|import)\(\s*['"]electron['"]\s*\)/.test(code);
};

const lineCount = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
    .map((file) => path.join(dir, file))
    .filter((file) => /\.(?:[cm]?ts|[cm]?js)$/.test(file) && fs.statSync(path.join(root, file)).isFile());
}

describe('Electron in the code base', () => {
  it('recognises imports of every kind, and not mentions', () => {
    expect(importsElectron("import { app } from 'electron';")).toBe(true);
    expect(importsElectron("import type { MenuItemConstructorOptions } from 'electron';")).toBe(true);
    expect(importsElectron("import {\n  app,\n  Tray,\n} from \"electron\";")).toBe(true);
    expect(importsElectron("const { app } = require('electron');")).toBe(true);
    expect(importsElectron("export { app } from 'electron';")).toBe(true);
    expect(importsElectron("const { app } = await import('electron');")).toBe(true);
    expect(importsElectron("  // require('electron') would download its binary")).toBe(false);
    expect(importsElectron("/**\n * Not require('electron'), which would download.\n */")).toBe(false);
    expect(importsElectron("import { x } from './electron-free.js';")).toBe(false);
  });

  it(`is imported by at most ${ELECTRON_LINE_BUDGET} lines of electron/`, () => {
    const counted = sourceFiles('electron')
      .map((file) => ({ file, text: fs.readFileSync(path.join(root, file), 'utf8') }))
      .filter(({ text }) => importsElectron(text))
      .map(({ file, text }) => ({ file, lines: lineCount(text) }));
    const total = counted.reduce((n, { lines }) => n + lines, 0);
    const listing = counted.map(({ file, lines }) => `${lines} ${file}`).join('\n');
    expect(counted.length).toBeGreaterThan(0);
    expect(total, `lines in files that import electron:\n${listing}`).toBeLessThanOrEqual(ELECTRON_LINE_BUDGET);
  });
});
