#!/usr/bin/env node
// Switches better-sqlite3's compiled binary between Node (tests, bench, `lanes daemon`) and
// Electron (`npm start`, `npm run dist`). One binary cannot serve both: each runtime checks the
// module's NODE_MODULE_VERSION when it loads. Usage: node electron/native/abi.mjs node|electron
//
// It runs before every `npm test`, so the common case (nothing to do) must stay well under 200 ms:
// read a small marker beside the .node file, stat the binary, and for Node load it once.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { binaryStamp, decideAbi, localNodeDir, targetIdentity } from './abi-decide.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const requireHere = createRequire(path.join(root, 'package.json'));
const target = process.argv[2];
const MODULE = 'better-sqlite3';

const moduleDir = path.dirname(requireHere.resolve(`${MODULE}/package.json`));
const binaryPath = path.join(moduleDir, 'build', 'Release', 'better_sqlite3.node');
// Beside the binary, so a reinstall that wipes build/ also wipes the marker (ignored by git).
const markerPath = path.join(moduleDir, 'build', 'Release', '.lanes-abi');
const lockDir = path.join(root, 'node_modules', '.cache', 'lanes-abi.lock');

function say(line) {
  process.stderr.write(`abi: ${line}\n`);
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

function statOrNull(file) {
  try {
    return fs.statSync(file);
  } catch {
    return null;
  }
}

function electronIdentity() {
  // Read electron's package files directly: require('electron') would try to download its binary.
  const dir = path.dirname(requireHere.resolve('electron/package.json'));
  const version = readJson(path.join(dir, 'package.json')).version;
  const modules = fs.readFileSync(path.join(dir, 'abi_version'), 'utf8').trim();
  return targetIdentity('electron', version, modules, process.platform, process.arch);
}

function wantedIdentity() {
  if (target === 'electron') return electronIdentity();
  return targetIdentity('node', process.versions.node, process.versions.modules, process.platform, process.arch);
}

function probeHere() {
  try {
    const Database = requireHere(MODULE);
    new Database(':memory:').close();
    return { ok: true };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

// After a rebuild, check in a fresh process: this one may still hold the old library mapped.
function probeFresh() {
  const script = `const D=require(${JSON.stringify(MODULE)});new D(':memory:').close()`;
  const run = spawnSync(process.execPath, ['-e', script], { cwd: root, encoding: 'utf8' });
  return run.status === 0 ? { ok: true } : { ok: false, message: run.stderr };
}

function facts() {
  return {
    target,
    want: wantedIdentity(),
    marker: readJson(markerPath),
    binary: binaryStamp(statOrNull(binaryPath)),
    probe: target === 'node' ? probeHere() : null,
  };
}

function writeMarker(want) {
  const marker = { ...want, binary: binaryStamp(statOrNull(binaryPath)) };
  fs.writeFileSync(markerPath, `${JSON.stringify(marker)}\n`);
}

function run(command, args, env, { shell = false } = {}) {
  say(`${path.basename(command)} ${args.map((a) => path.basename(a)).join(' ')}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env }, shell });
  return result.status === 0;
}

function rebuildForNode() {
  // Offline machines: point node-gyp at this Node's own headers instead of downloading them.
  const env = {};
  if (!process.env.npm_config_nodedir) {
    const readHeader = (file) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null);
    const nodedir = localNodeDir(process.execPath, process.versions.node, readHeader, path);
    if (nodedir) env.npm_config_nodedir = nodedir;
  }
  // Under `npm run`, npm_execpath is npm's own script: run it with this Node, no shell needed.
  const npmCli = process.env.npm_execpath;
  if (npmCli && npmCli.endsWith('.js')) return run(process.execPath, [npmCli, 'rebuild', MODULE], env);
  // Outside npm: the `npm` on PATH, which on Windows is a .cmd and needs a shell.
  return run('npm', ['rebuild', MODULE], env, { shell: process.platform === 'win32' });
}

/** Where @electron/rebuild fetches Electron's headers from, as its CLI reads it. */
const headersUrl = () => process.env.ELECTRON_REBUILD_DIST_URL || 'https://www.electronjs.org/headers';
const electronLog = path.join(root, 'node_modules', '.cache', 'lanes-abi-electron.log');

function rebuildForElectron(want) {
  // Its package.json is not exported, so find its CLI by path (a devDependency, hoisted to root).
  const cli = path.join(root, 'node_modules', '@electron', 'rebuild', 'lib', 'cli.js');
  // --only: this module alone. (-w adds it to every native module of the tree, which rebuilt
  // others, msgpackr-extract among them, for Electron in the checkout Node also runs.)
  const args = [cli, '-f', '--only', MODULE, '-v', want.version, '-m', root];
  say(`electron-rebuild ${args.slice(1).map((a) => path.basename(a)).join(' ')} (its output: ${path.relative(root, electronLog)})`);
  // Its output goes to a file: a failed download ends in pages of node-gyp's stack traces, and
  // what to do about it fits one line (electronFailure).
  // Not a nodedir from .npmrc: those are Node's headers (rebuildForNode's offline trick), and a
  // module built against them for Electron builds, then fails to load in Electron.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k.toLowerCase() !== 'npm_config_nodedir'));
  const result = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8', env });
  fs.mkdirSync(path.dirname(electronLog), { recursive: true });
  fs.writeFileSync(electronLog, `${result.stdout ?? ''}${result.stderr ?? ''}`);
  return result.status === 0;
}

/** The one line for a failed rebuild for Electron: the headers' download, or the build itself. */
async function electronFailure(want) {
  const { probe } = await import('../packaging/preflight.mjs');
  const url = headersUrl();
  const answer = await probe(`${url.replace(/\/$/, '')}/v${want.version}/node-v${want.version}-headers.tar.gz`);
  const log = path.relative(root, electronLog);
  const daemon = 'or run the same engine without a window: npm run daemon';
  if (/^the host answered (2|3)\d\d/.test(answer)) return `the rebuild of ${MODULE} for Electron ${want.version} failed (its output: ${log}); ${daemon}`;
  let host = url;
  try {
    host = new URL(url).host;
  } catch {
    /* said as given */
  }
  return `cannot build ${MODULE} for Electron ${want.version}: the download of Electron's headers from ${host} failed (${answer}); set ELECTRON_REBUILD_DIST_URL to a mirror of them and try again, ${daemon} (output: ${log})`;
}

function sleep(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function pidAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

// Two `npm test` runs at once must not compile into the same build/ folder together.
function withLock(fn) {
  fs.mkdirSync(path.dirname(lockDir), { recursive: true });
  for (;;) {
    try {
      fs.mkdirSync(lockDir);
      fs.writeFileSync(path.join(lockDir, 'pid'), String(process.pid));
      break;
    } catch {
      const owner = Number(readJson(path.join(lockDir, 'pid')));
      if (owner && !pidAlive(owner)) fs.rmSync(lockDir, { recursive: true, force: true });
      else sleep(500);
    }
  }
  try {
    return fn();
  } finally {
    fs.rmSync(lockDir, { recursive: true, force: true });
  }
}

function main() {
  if (target !== 'node' && target !== 'electron') {
    say('usage: node electron/native/abi.mjs node|electron');
    return 2;
  }
  const first = decideAbi(facts());
  if (first.action === 'none') return 0;
  if (first.action === 'fail') {
    say(first.reason);
    return 1;
  }
  return withLock(() => {
    // Decide again under the lock: another run may have just done the work.
    const current = facts();
    const decision = decideAbi(current);
    if (decision.action === 'none') return 0;
    if (decision.action === 'fail') {
      say(decision.reason);
      return 1;
    }
    if (decision.action === 'rebuild') {
      say(`rebuilding ${MODULE} for ${target} (${decision.reason})`);
      const built = target === 'node' ? rebuildForNode() : rebuildForElectron(current.want);
      if (!built) {
        // Electron's headers come from the network once, then are cached.
        if (target === 'electron') return { failed: current.want };
        say(`rebuild for ${target} failed; see the output above`);
        return 1;
      }
      if (target === 'node') {
        const check = probeFresh();
        if (!check.ok) {
          say(`rebuilt, but it still does not load under node:\n${check.message}`);
          return 1;
        }
      }
    }
    writeMarker(current.want);
    if (decision.action === 'rebuild') say(`${MODULE} now built for ${target} ${current.want.version}`);
    return 0;
  });
}

const outcome = main();
// A failed rebuild for Electron is worded outside the lock: finding out why asks the network.
if (typeof outcome === 'object') {
  say(await electronFailure(outcome.failed));
  process.exitCode = 1;
} else {
  process.exitCode = outcome;
}
