// Where the app finds its own files at run time. Everything hangs off the package root as the
// engine finds it (appRoot: the project folder under `electron .`, resources/app.asar when
// packaged), so electron-builder.yml's `files` must cover each of these; the packaging test
// (test/shell/packaging.test.ts) reads the same list and checks that it does.
import path from 'node:path';
import { windowDir } from '../api/window-files.js';
import { appRoot } from '../paths/app-files.js';

/** Relative to the package root. */
export const RUNTIME_FILES = {
  rendererIndex: 'dist/renderer/index.html',
  preload: 'dist/electron/shell/preload.cjs',
  main: 'dist/electron/shell/main.js',
  workerEntry: 'dist/electron/worker/main.js',
  /** The same runtime in one file, which the engine prefers when it is there (app-files.ts). */
  workerBundle: 'dist/electron/worker/runtime.cjs',
  iconsDir: 'electron/shell/icons',
} as const;

export const appPaths = {
  /** The window's built files, served at app://lanes/ (the same folder the local API serves). */
  windowDir,
  preload: path.join(appRoot, RUNTIME_FILES.preload),
  iconsDir: path.join(appRoot, RUNTIME_FILES.iconsDir),
  /** The window's and the notifications' icon. */
  appIcon: path.join(appRoot, RUNTIME_FILES.iconsDir, 'icon-512.png'),
};
