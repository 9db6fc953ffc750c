// Bundles the `lanes` command into one file, run by
// `npm run build:node` after tsc. A CLI call is mostly start-up: as ~30 separate ES modules, Node
// spent more time finding, opening and linking files than running them (about 30 ms a call on a
// 2-core machine); one file is read and compiled once. bin/lanes.js prefers this bundle and falls
// back to tsc's output when the bundle is missing or older (a test run that only ran tsc).
//
// CommonJS, for two reasons measured side by side: Node's built-in modules imported by an ES
// module each get a facade of their exports (about 4 ms for the CLI's), and bin/lanes.js runs a
// CommonJS file from V8's code cache, which Node 20 offers no way to do for an ES module.
//
// One file, not a chunk per command: loading `lanes add` as 9 small chunks instead of everything
// measured no faster, as each file costs about what the code it leaves out would.
//
// The engine is never bundled here: `lanes daemon` imports the API host from tsc's output, so the
// engine that runs is the same code the desktop app and the tests load.
//
// The worker runtime is bundled too (dist/electron/worker/runtime.cjs), for the same reason: every
// worker that starts is a cold start a person waits on, and 15 modules cost about 15 ms of it.
// As CommonJS, since a process whose entry is CommonJS starts without Node's ES module loader:
// forked side by side, 1–7 ms sooner to its first message than the same bundle as an ES module.
// The engine prefers it the same way (electron/paths/app-files.ts).
import { readFileSync, rmSync } from 'node:fs';
import { build } from 'esbuild';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const outdir = join(root, 'dist', 'cli');

/**
 * `…/api/host.js` (the engine's host) stays the compiled ES module in dist/electron/api/, loaded
 * when `lanes daemon` runs. bin/lanes.js hands the bundle its own `import` as `__lanesImport`:
 * code V8 restores from its cache cannot run `import()` in Node 20 without a flag.
 */
const engineStaysOut = {
  name: 'engine-stays-out',
  setup(b) {
    b.onResolve({ filter: /\/api\/host\.js$/ }, (args) => {
      const compiled = join(root, 'dist', relative(root, resolve(args.resolveDir, args.path)));
      return { path: relative(outdir, compiled), namespace: 'engine' };
    });
    b.onLoad({ filter: /.*/, namespace: 'engine' }, (args) => ({
      contents: [
        "import { join } from 'node:path';",
        "import { pathToFileURL } from 'node:url';",
        `const host = () => __lanesImport(pathToFileURL(join(__dirname, ${JSON.stringify(args.path)})).href);`,
        'export async function hostEngine(options) { return (await host()).hostEngine(options); }',
      ].join('\n'),
      loader: 'js',
      resolveDir: outdir,
    }));
  },
};

/**
 * Node's child_process, loaded when first used: commander requires it at its top for a feature
 * Lanes has no use for (subcommands that are programs of their own), and `lanes open` needs it
 * only once it runs. Loading it (and dgram with it) was about 1 ms of every call. Only `spawn` is
 * offered, the one function the CLI calls: an import of any other fails the build.
 */
const lazyChildProcess = {
  name: 'lazy-child-process',
  setup(b) {
    b.onResolve({ filter: /^(node:)?child_process$/ }, (args) => (args.namespace === 'lazy' ? { path: 'node:child_process', external: true } : { path: 'child_process', namespace: 'lazy' }));
    b.onLoad({ filter: /.*/, namespace: 'lazy' }, () => ({
      contents: "let real;\nexport function spawn(...args) {\n  return (real ??= require('node:child_process')).spawn(...args);\n}\n",
      loader: 'js',
      resolveDir: outdir,
    }));
  },
};

/**
 * The CLI needs of electron/paths/app-files.ts only the version: written in here, it spares every
 * call finding the package root (a walk up, reading package.json twice), as the executable's does.
 */
const versionWrittenIn = {
  name: 'version-written-in',
  setup(b) {
    b.onResolve({ filter: /\/paths\/app-files\.js$/ }, () => ({ path: 'app-files', namespace: 'version' }));
    b.onLoad({ filter: /.*/, namespace: 'version' }, () => ({
      contents: `export const appVersion = ${JSON.stringify(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version)};`,
      loader: 'js',
    }));
  },
};

// Chunk names carry a hash: last build's would stay beside this one's.
rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: { lanes: join(root, 'electron', 'cli', 'main.ts') },
  outdir,
  outExtension: { '.js': '.cjs' },
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  // The CLI's modules find Lanes' files from where they are (electron/paths/app-files.ts).
  define: { 'import.meta.url': '__lanesUrl' },
  banner: { js: "const __lanesUrl = require('node:url').pathToFileURL(__filename).href;" },
  // Node's own modules loaded on demand are required, not imported (see engineStaysOut).
  supported: { 'dynamic-import': false },
  external: ['better-sqlite3'],
  plugins: [engineStaysOut, lazyChildProcess, versionWrittenIn],
  logLevel: 'warning',
});

await build({
  entryPoints: [join(root, 'electron', 'worker', 'main.ts')],
  outfile: join(root, 'dist', 'electron', 'worker', 'runtime.cjs'),
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
});
