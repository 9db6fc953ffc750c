// The standalone `lanes` executable for tests: built by `npm run build:exe` (electron/cli/exe.mjs),
// or here, once, when it is missing or older than the code it is built from. A few seconds: it
// bundles the CLI, asks this Node for a blob and injects it into a copy of this Node. Test files
// run in parallel, so a lock directory keeps it to one build (as ensureBuilt does for tsc).
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { buildOnce, newestSource, ROOT } from './daemon.js';

export const EXE = join(ROOT, 'dist', 'exe', process.platform === 'win32' ? 'lanes.exe' : 'lanes');

const stale = () => {
  const built = statSync(EXE, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  const sources = Math.max(newestSource(join(ROOT, 'electron', 'cli')), newestSource(join(ROOT, 'electron', 'paths')), newestSource(join(ROOT, 'shared')));
  return built < sources;
};

export async function ensureExe(): Promise<string> {
  await buildOnce('.test-exe-lock', stale, () => {
    const run = spawnSync(process.execPath, [join(ROOT, 'electron', 'cli', 'exe.mjs')], { cwd: ROOT, encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`npm run build:exe failed:\n${run.stdout}${run.stderr}`);
  });
  return EXE;
}
