// The product's source files, for the tests that check its shape: everything under electron/,
// shared/ and renderer/ that the compilers read (.ts, .tsx), declarations and build outputs aside.
import fs from 'node:fs';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '..', '..');
export const PRODUCT_DIRS = ['electron', 'shared', 'renderer'] as const;

function walk(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'dist' ? [] : walk(full);
    return /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** Every product source file, absolute, sorted. */
export const productSources = (dirs: readonly string[] = PRODUCT_DIRS): string[] => dirs.flatMap((d) => walk(path.join(root, d))).sort();
