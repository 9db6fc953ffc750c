// Builds the standalone `lanes` executable, `npm run build:exe`: dist/exe/lanes (lanes.exe on
// Windows) for this platform, needing no Node on the machine that runs it. An installed app
// carries no Node, and its own binary will not run as one (the runAsNode fuse, docs/security.md),
// so the command line it ships is this: a copy of the Node running this script with the CLI
// injected as a single executable application (Node's SEA: a blob of the script, put into the
// binary by postject). Why SEA and not pkg or a second runtime: docs/desktop.md.
//
// The CLI is bundled again, as CommonJS (what Node 20's SEA runs), with everything it loads in
// the one file; the engine stays out (the executable runs no engine, see standalone.ts), and the
// version is written in, since there is no package.json beside it to read.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const outdir = join(root, 'dist', 'exe');
const exe = join(outdir, process.platform === 'win32' ? 'lanes.exe' : 'lanes');
const script = join(outdir, 'lanes.cjs');
const blob = join(outdir, 'lanes.blob');
const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
// Node's marker that a blob may be injected; the same string in every Node with SEA support.
const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

/** Modules swapped for what the executable has instead: a version written in, no engine. */
const standaloneParts = {
  name: 'standalone-parts',
  setup(b) {
    b.onResolve({ filter: /\/paths\/app-files\.js$/ }, () => ({ path: 'app-files', namespace: 'standalone' }));
    b.onResolve({ filter: /\/api\/host\.js$/ }, () => ({ path: 'host', namespace: 'standalone' }));
    b.onLoad({ filter: /.*/, namespace: 'standalone' }, (args) => ({
      contents:
        args.path === 'app-files'
          ? `export const appVersion = ${JSON.stringify(version)};`
          : // Never reached: `lanes daemon` says where the engine runs before it would load this.
            'export async function hostEngine() { throw new Error("this lanes runs no engine"); }',
      loader: 'js',
    }));
  },
};

function say(line) {
  process.stderr.write(`build:exe: ${line}\n`);
}

function fail(line) {
  say(line);
  process.exit(1);
}

const [major, minor] = process.versions.node.split('.').map(Number);
// Node 20.6 is the first with useCodeCache; before it the executable would start slower than Node.
if (major < 20 || (major === 20 && minor < 6)) fail(`Node ${process.versions.node} cannot build it; use Node 20.6 or later`);
if (!readFileSync(process.execPath).includes(FUSE)) fail(`${process.execPath} is built without single executable support (a distribution's Node?); use one from nodejs.org`);

const require = createRequire(join(root, 'package.json'));
try {
  require.resolve('postject');
} catch {
  fail('postject is not installed; run `npm ci` in the Lanes checkout');
}

rmSync(outdir, { recursive: true, force: true });
mkdirSync(outdir, { recursive: true });
const bundled = await build({
  entryPoints: [join(root, 'electron', 'cli', 'main.ts')],
  outfile: script,
  write: false,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: `node${major}`,
  define: { LANES_STANDALONE: 'true' },
  // `lanes --version` needs nothing of the CLI, as in bin/lanes.js: answered before any of it runs.
  banner: {
    js: `if (process.argv.length === 3 && (process.argv[2] === '--version' || process.argv[2] === '-V')) { require('node:fs').writeSync(1, ${JSON.stringify(`${version}\n`)}); process.exit(0); }`,
  },
  plugins: [standaloneParts],
  logLevel: 'warning',
});
// A script with a code cache cannot import(): the CLI's few late loads of Node's own modules
// (loaded late so the other commands start sooner) become require(), which an executable's
// script has for Node's own modules.
const text = bundled.outputFiles[0].text.replace(/\bimport\(("node:[a-z_/]+")\)/g, 'Promise.resolve().then(() => require($1))');
if (/\bimport\(/.test(text)) fail('the bundled CLI still holds an import() a single executable cannot run');
writeFileSync(script, text);

// The code cache is V8's compiled form of the script, made now: the executable starts without
// compiling the CLI, which is what makes it start as fast as `node bin/lanes.js` or faster.
const config = join(outdir, 'sea-config.json');
writeFileSync(config, JSON.stringify({ main: script, output: blob, disableExperimentalSEAWarning: true, useCodeCache: true }));
const prepared = spawnSync(process.execPath, ['--experimental-sea-config', config], { encoding: 'utf8' });
if (prepared.status !== 0) fail(`node --experimental-sea-config failed:\n${prepared.stdout}${prepared.stderr}`);

copyFileSync(process.execPath, exe);
chmodSync(exe, 0o755);
// macOS refuses a signed binary whose contents changed: unsign, inject, then sign it ad hoc.
if (process.platform === 'darwin') execFileSync('codesign', ['--remove-signature', exe]);
// postject's own CLI, in a child: its chatter (warnings about the ELF notes it leaves as they are)
// is shown only when it fails.
const postject = join(dirname(require.resolve('postject')), 'cli.js');
const injected = spawnSync(process.execPath, [postject, exe, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', FUSE, ...(process.platform === 'darwin' ? ['--macho-segment-name', 'NODE_SEA'] : [])], { encoding: 'utf8' });
if (injected.status !== 0) fail(`postject failed:\n${injected.stdout}${injected.stderr}`);
if (process.platform === 'darwin') execFileSync('codesign', ['--sign', '-', exe]);

for (const file of [config, blob, script]) rmSync(file);
say(`wrote ${exe}`);
