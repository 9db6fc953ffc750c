// Where the app finds its own files at run time. Everything hangs off the app path (the project
// folder under `electron .`, resources/app.asar when packaged), so electron-builder.yml's `files`
// must cover each of these; test/shell/packaging.test.ts checks that it does.
import path from 'node:path';

export interface AppPaths {
  rendererDir: string;
  preload: string;
  iconsDir: string;
}

/** Relative to the app path; the packaging test reads this same list. */
export const RUNTIME_FILES = {
  rendererIndex: 'dist/renderer/index.html',
  preload: 'dist/electron/shell/preload.cjs',
  main: 'dist/electron/shell/main.js',
  workerEntry: 'dist/electron/worker/main.js',
  iconsDir: 'electron/shell/icons',
} as const;

export function appPaths(appPath: string): AppPaths {
  return {
    rendererDir: path.join(appPath, path.dirname(RUNTIME_FILES.rendererIndex)),
    preload: path.join(appPath, RUNTIME_FILES.preload),
    iconsDir: path.join(appPath, RUNTIME_FILES.iconsDir),
  };
}
