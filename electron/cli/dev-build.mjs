// `npm run daemon` in a checkout builds only what changed since the last build: the engine and the
// CLI (tsc and the bundle) when a source of theirs is newer than their output, the window (vite)
// when one of its sources is — a full build took about two minutes on every start, for nothing
// when nothing had changed. It says which, in one line, so a stale build is never a mystery.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The newest modification time under `paths` (files or folders); 0 where none exists. */
function newest(paths) {
  let t = 0;
  for (const p of paths) {
    let st;
    try {
      st = statSync(join(root, p));
    } catch {
      continue;
    }
    if (!st.isDirectory()) t = Math.max(t, st.mtimeMs);
    else for (const e of readdirSync(join(root, p))) t = Math.max(t, newest([join(p, e)]));
  }
  return t;
}

const parts = [
  { name: 'engine and CLI', script: 'build:node', sources: ['electron', 'shared', 'migrations', 'tsconfig.node.json', 'tsconfig.base.json', 'package.json'], built: ['dist/cli/lanes.cjs', 'dist/electron/api/host.js', 'dist/electron/worker/runtime.cjs'] },
  { name: 'window', script: 'build:renderer', sources: ['renderer', 'shared', 'vite.config.ts', 'tsconfig.renderer.json', 'package.json'], built: ['dist/renderer/index.html'] },
];

// A part is stale when any of its outputs is missing or older than its newest source.
const stale = parts.filter((p) => {
  const outputs = p.built.map((b) => newest([b]));
  return outputs.some((t) => t === 0) || Math.min(...outputs) < newest(p.sources);
});
if (stale.length === 0) console.log('lanes: the build is up to date');
for (const p of stale) {
  console.log(`lanes: building the ${p.name} (changed since the last build)`);
  const run = spawnSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', '--silent', p.script], { cwd: root, stdio: 'inherit' });
  if (run.status !== 0) process.exit(run.status ?? 1);
}
