// The standalone `lanes` executable for tests: built by `npm run build:exe` (electron/cli/exe.mjs),
// or here, once, when it is missing or older than the code it is built from. A few seconds: it
// bundles the CLI, asks this Node for a blob and injects it into a copy of this Node. Test files
// run in parallel, so a lock directory keeps it to one build (as ensureBuilt does for tsc).
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { newestSource, ROOT } from './daemon.js';

export const EXE = join(ROOT, 'dist', 'exe', process.platform === 'win32' ? 'lanes.exe' : 'lanes');

const stale = () => {
  const built = statSync(EXE, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  const sources = Math.max(newestSource(join(ROOT, 'electron', 'cli')), newestSource(join(ROOT, 'electron', 'paths')), newestSource(join(ROOT, 'shared')));
  return built < sources;
};

export async function ensureExe(): Promise<string> {
  if (!stale()) return EXE;
  const lock = join(ROOT, 'dist', '.test-exe-lock');
  mkdirSync(join(ROOT, 'dist'), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // Someone else is building: wait for their lock to go, then see whether we still must.
      await new Promise((done) => setTimeout(done, 200));
      const held = statSync(lock, { throwIfNoEntry: false });
      // A lock older than any build is left from a run that died mid-build.
      if (held && Date.now() - held.mtimeMs > 120_000) rmSync(lock, { recursive: true, force: true });
    }
  }
  try {
    if (!stale()) return EXE;
    const run = spawnSync(process.execPath, [join(ROOT, 'electron', 'cli', 'exe.mjs')], { cwd: ROOT, encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`npm run build:exe failed:\n${run.stdout}${run.stderr}`);
    return EXE;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
