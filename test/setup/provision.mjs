#!/usr/bin/env node
// Makes sure what `npm test` needs beyond Node and npm is on this machine before any test runs:
// a Chromium for the window's Playwright tests, python3 for the example persistent worker,
// redis-server for the Redis-backed tests, and zsh and fish for the completion tests. A fresh
// clone should either get them installed or be told in one line what to install, instead of a
// dozen tests failing minutes later.
// Usage: node test/setup/provision.mjs (npm test and npm run test:ui run it first).
//
// Writes what it found to test-results/provision.json; playwright.config.ts imports findChromium()
// from here so the browser lookup is written once. When everything is present it only stats a
// few files, so it stays far under a second and never touches the network.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

function say(line) {
  process.stderr.write(`lanes tests: ${line}\n`);
}

// An empty or non-regular file (say /dev/null bound over a binary) cannot be the program we want.
function isExecutable(file) {
  try {
    const stat = fs.statSync(file);
    fs.accessSync(file, fs.constants.X_OK);
    return stat.isFile() && stat.size > 0;
  } catch {
    return false;
  }
}

function onPath(name) {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir && isExecutable(path.join(dir, name))) return path.join(dir, name);
  }
  return undefined;
}

const SYSTEM_CHROMIUM = ['/usr/bin/chromium', '/Applications/Chromium.app/Contents/MacOS/Chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome'];

/** The Chromium the window's tests run in: LANES_CHROMIUM, the system's, then Playwright's own. */
export function findChromium() {
  const chosen = process.env.LANES_CHROMIUM;
  if (chosen && isExecutable(chosen)) return chosen;
  for (const name of ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable']) {
    const found = onPath(name);
    if (found) return found;
  }
  const system = SYSTEM_CHROMIUM.find(isExecutable);
  if (system) return system;
  try {
    // Loaded only here: playwright-core takes almost half a second to load.
    const own = createRequire(path.join(root, 'package.json'))('playwright-core').chromium.executablePath();
    return isExecutable(own) ? own : undefined;
  } catch {
    return undefined; // not installed yet (no `npm ci`), or no build for this platform
  }
}

// Playwright's download needs internet; offline it can hang on retries, so it gets a deadline and
// its output is kept unless it succeeds. The whole process group is killed: the CLI downloads in
// a child process of its own.
function playwrightInstall(seconds = 120) {
  return new Promise((resolve) => {
    const child = spawn('npx', ['--no-install', 'playwright', 'install', 'chromium'], { cwd: root, detached: true, stdio: 'ignore' });
    const timer = setTimeout(() => {
      try { process.kill(-child.pid, 'SIGKILL'); } catch { /* already gone */ }
    }, seconds * 1000);
    child.on('error', () => { clearTimeout(timer); resolve(false); });
    child.on('exit', (code) => { clearTimeout(timer); resolve(code === 0); });
  });
}

// One entry per thing the tests need. `fetch` is an optional way to get it without root.
const REQUIREMENTS = [
  {
    key: 'chromium', name: 'chromium', find: findChromium, apt: 'chromium', fetch: playwrightInstall,
    hint: 'install it (Debian/Ubuntu: sudo apt-get install chromium; macOS: brew install --cask chromium) or set LANES_CHROMIUM=/path/to/chrome',
  },
  {
    key: 'python3', name: 'python3', find: () => onPath('python3'), apt: 'python3',
    hint: 'install it (Debian/Ubuntu: sudo apt-get install python3; macOS: brew install python)',
  },
  {
    key: 'redisServer', name: 'redis-server', find: () => onPath('redis-server'), apt: 'redis-server',
    hint: 'install it (Debian/Ubuntu: sudo apt-get install redis-server; macOS: brew install redis)',
  },
  // `lanes completion zsh|fish` is tried in the shells themselves (bash is already everywhere).
  {
    key: 'zsh', name: 'zsh', find: () => onPath('zsh'), apt: 'zsh',
    hint: 'install it (Debian/Ubuntu: sudo apt-get install zsh; macOS has it)',
  },
  {
    key: 'fish', name: 'fish', find: () => onPath('fish'), apt: 'fish',
    hint: 'install it (Debian/Ubuntu: sudo apt-get install fish; macOS: brew install fish)',
  },
];

function canApt() {
  return process.getuid?.() === 0 && fs.existsSync('/etc/debian_version') && onPath('apt-get') !== undefined;
}

// A package may install fine yet fail to start its service (redis-server in a container without
// an init system); apt's exit code is then non-zero, so success is judged by finding the program.
function aptInstall(packages) {
  say(`installing ${packages.join(' ')} with apt-get`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update', '-qq'], ['install', '-y', '-qq', ...packages]]) {
    const run = spawnSync('apt-get', args, { env, encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] });
    const reason = (run.stderr ?? '').trim().split('\n').pop();
    if (run.status !== 0) say(`apt-get ${args[0]} exited ${run.status ?? run.signal}${reason ? `: ${reason}` : ''}`);
  }
}

async function provision() {
  if (process.env.LANES_CHROMIUM && !isExecutable(process.env.LANES_CHROMIUM)) {
    say(`LANES_CHROMIUM=${process.env.LANES_CHROMIUM} is not an executable file; looking elsewhere`);
  }
  const found = {};
  for (const need of REQUIREMENTS) found[need.key] = need.find();
  for (const need of REQUIREMENTS) {
    if (!found[need.key] && need.fetch && (await need.fetch())) found[need.key] = need.find();
  }
  const missing = () => REQUIREMENTS.filter((need) => !found[need.key]);
  if (missing().length && canApt()) {
    aptInstall(missing().map((need) => need.apt));
    for (const need of missing()) found[need.key] = need.find();
  }
  if (missing().length) {
    say(missing().map((need) => `no ${need.name} found — ${need.hint}`).join('; '));
    process.exit(1);
  }
  for (const need of REQUIREMENTS) say(`${need.name} ${found[need.key]}`);
  fs.mkdirSync(path.join(root, 'test-results'), { recursive: true });
  fs.writeFileSync(path.join(root, 'test-results', 'provision.json'), `${JSON.stringify(found, null, 2)}\n`);
}

// Run only as a script: playwright.config.ts imports this file for findChromium().
if (process.argv[1] && fs.realpathSync(process.argv[1]) === fs.realpathSync(fileURLToPath(import.meta.url))) await provision();
