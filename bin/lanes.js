#!/usr/bin/env node
// The `lanes` command. CommonJS (bin/package.json says so): an ES module entry starts Node's ES
// module loader, which costs a CLI call some 6 ms before any of its own code runs.
//
// The CLI itself is compiled TypeScript, bundled into one CommonJS file (dist/cli/lanes.cjs) and run
// here from V8's code cache: a call is mostly start-up, and compiling the 220 kB bundle and each
// function it runs was about a third of what `lanes status` cost over a bare `node -e 0`. Each
// command keeps a cache of its own (dist/cli/lanes.cjs.status.cache …; one more for help and
// mistyped words), written by its first call that finds none, or finds it stale (V8 checks it
// against the source and the flags, and compiles as usual when it does not match): a cache holds
// the functions the call that wrote it ran, so one shared by all commands held those of whichever
// came first — after `npm run daemon`, the engine host's, written when it stopped, with which
// `lanes status` cost twice its own cache's time over bare Node. Where dist/ cannot be written,
// calls run without one. When the bundle is missing or older than tsc's output (a test run that
// only recompiled), tsc's ES modules in dist/electron/cli/ run instead.
'use strict';
const { readFileSync, renameSync, rmSync, statSync, writeFileSync } = require('node:fs');
const { dirname, join } = require('node:path');

const args = process.argv.slice(2);
const root = join(__dirname, '..');

if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // Needs nothing of the CLI: answered here, as commander would (version, newline).
  process.stdout.write(`${JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version}\n`);
} else {
  const bundle = join(root, 'dist', 'cli', 'lanes.cjs');
  const compiled = join(root, 'dist', 'electron', 'cli', 'main.js');
  const mtime = (path) => statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? -1;
  if (mtime(bundle) >= 0 && mtime(bundle) >= mtime(compiled)) runCached(bundle, commandOf(args));
  else {
    import(require('node:url').pathToFileURL(compiled).href).catch((err) => {
      const missing = err?.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes(compiled);
      process.stderr.write(missing ? 'lanes: the CLI is not built yet; run `npm run build:node` in the Lanes checkout.\n' : `lanes: ${err?.stack ?? err}\n`);
      process.exitCode = 1;
    });
  }
}

/**
 * The command a call names: its first word that is neither an option nor the value of
 * `--data-dir` (the one option before a command that takes one), as program.ts finds it.
 */
function commandOf(words) {
  for (let i = 0; i < words.length; i++) {
    if (words[i] === '--data-dir') i++;
    else if (!words[i].startsWith('-')) return words[i];
  }
  return null;
}

/**
 * Runs a CommonJS file as `require` would, compiled with V8's cache of it for `command` when one
 * matches. The bundle names its commands (`commandNames`): any other word shares one cache, so a
 * typo never leaves a file behind.
 */
function runCached(file, command) {
  const Module = require('node:module');
  const { Script } = require('node:vm');
  const cacheOf = (name) => (name ? `${file}.${name}.cache` : `${file}.cache`);
  let cacheFile = cacheOf(/^[a-z_]{1,20}$/.test(command ?? '') ? command : null);
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  // Module.wrap's parameters, and this file's `import` for the engine's ES modules (`lanes daemon`):
  // code V8 restores from a cache cannot run `import()` itself in Node 20 without a flag.
  const source = `(function (exports, require, module, __filename, __dirname, __lanesImport) {${readFileSync(file, 'utf8')}\n})`;
  const script = new Script(source, { filename: file, cachedData });
  const mod = { exports: {} };
  if (!cachedData || script.cachedDataRejected) {
    // At exit the cache holds every function this call compiled, not only the top level.
    process.once('exit', () => {
      if (!mod.exports.commandNames?.includes(command) && cacheFile !== cacheOf(null)) {
        cacheFile = cacheOf(null);
        // The shared cache stands: a mistyped word must not replace help's with its own.
        if (statSync(cacheFile, { throwIfNoEntry: false })) return;
      }
      const partial = `${cacheFile}.${process.pid}`;
      try {
        writeFileSync(partial, script.createCachedData());
        renameSync(partial, cacheFile);
      } catch {
        // A read-only install runs uncached; nothing else depends on the file.
        rmSync(partial, { force: true });
      }
    });
  }
  script.runInThisContext()(mod.exports, Module.createRequire(file), mod, file, dirname(file), (url) => import(url));
}
