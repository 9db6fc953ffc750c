// Where Lanes' own files are at run time (migrations, the worker runtime, the version), found
// from the package root, one way for the engine, the API, the CLI and the desktop app, so the same
// code works from source (tests), from dist/, and from a packaged app.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'lanes') return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error('cannot find the Lanes package root (package.json named "lanes")');
    dir = up;
  }
}

export const appRoot = findRoot();
export const migrationsDir = join(appRoot, 'migrations');
const mtime = (path: string) => statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? -1;
const compiledWorker = join(appRoot, 'dist', 'electron', 'worker', 'main.js');
const bundledWorker = join(appRoot, 'dist', 'electron', 'worker', 'runtime.cjs');
/**
 * The worker runtime `npm run build` produces: bundled into one file (a worker starts faster),
 * or tsc's output when the bundle is missing or older (a build that only recompiled).
 */
export const workerEntry = mtime(bundledWorker) >= mtime(compiledWorker) ? bundledWorker : compiledWorker;
export const appVersion = (JSON.parse(readFileSync(join(appRoot, 'package.json'), 'utf8')) as { version: string }).version;
