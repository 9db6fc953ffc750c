#!/usr/bin/env node
// Runs first in `npm start` and `npm run dist`: is Electron's binary here? npm installs the
// electron package, but its binary comes in a second download (from GitHub, or ELECTRON_MIRROR)
// that can fail on its own, offline or behind a proxy. Without this check `npm start` ends in
// Electron's own stack trace, and `npm run dist` runs for minutes before failing the same way.
// When the binary is missing this fetches it once, with Electron's own installer; when that
// fails it says so in one line (the host, the cause, the variable that picks another host, and
// that `npm run daemon` runs the same engine without a window) and exits 1.
// Usage: node electron/packaging/preflight.mjs start|dist
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where @electron/get downloads from when no mirror is set. */
export const DEFAULT_MIRROR = 'https://github.com/electron/electron/releases/download/';

/** The mirror Electron's installer will use: ELECTRON_MIRROR, else .npmrc's electron_mirror. */
export function mirrorOf(env) {
  return env.ELECTRON_MIRROR || env.npm_config_electron_mirror || env.NPM_CONFIG_ELECTRON_MIRROR || DEFAULT_MIRROR;
}

/** The one line said when the binary cannot be had. `cause` is short: "getaddrinfo ENOTFOUND github.com". */
export function failureLine({ task, host, cause }) {
  const what = task === 'dist' ? 'package the app' : 'start the app';
  return (
    `lanes: cannot ${what}: Electron's binary is missing and its download from ${host} failed (${cause}); ` +
    'set ELECTRON_MIRROR to a mirror you can reach and try again, or run the same engine without a window: npm run daemon'
  );
}

/** Why the host did not answer, asked directly: Electron's installer prints only "fetch failed". */
export async function probe(url) {
  try {
    const res = await fetch(url, { method: 'HEAD', redirect: 'manual', signal: AbortSignal.timeout(8_000) });
    return `the host answered ${res.status}`;
  } catch (error) {
    const cause = error?.cause ?? error;
    if (cause?.name === 'TimeoutError' || error?.name === 'TimeoutError') return 'no answer within 8 s';
    const code = cause?.code ?? cause?.name ?? 'error';
    return cause?.hostname ? `${cause.syscall ?? 'connect'} ${code} ${cause.hostname}` : String(cause?.message ?? code);
  }
}

/** The binary's path as Electron's own index.js finds it, or null where it is not there. */
export function electronBinary(electronDir, env) {
  const pathFile = path.join(electronDir, 'path.txt');
  if (!fs.existsSync(pathFile)) return null;
  const relative = fs.readFileSync(pathFile, 'utf8');
  const full = path.join(env.ELECTRON_OVERRIDE_DIST_PATH || path.join(electronDir, 'dist'), relative);
  return fs.existsSync(full) ? full : null;
}

async function main() {
  const task = process.argv[2] === 'dist' ? 'dist' : 'start';
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
  const electronDir = path.join(root, 'node_modules', 'electron');
  if (!fs.existsSync(path.join(electronDir, 'package.json'))) {
    process.stderr.write('lanes: the electron package is not installed; run `npm ci` first (or `npm run daemon` for the engine without a window)\n');
    return 1;
  }
  if (electronBinary(electronDir, process.env)) return 0;
  // Said only to a person watching: a failure must stay one line for everyone else.
  if (process.stderr.isTTY) process.stderr.write("lanes: Electron's binary is not here yet; downloading it once …\n");
  // Electron's own installer: the same download `npm ci` tried, with its mirrors, cache and checksums.
  const install = spawnSync(process.execPath, [path.join(electronDir, 'install.js')], { cwd: electronDir, encoding: 'utf8', timeout: 15 * 60_000 });
  if (install.status === 0 && electronBinary(electronDir, process.env)) return 0;
  const mirror = mirrorOf(process.env);
  let host = mirror;
  try {
    host = new URL(mirror).host;
  } catch {
    /* not a URL: said as it was given */
  }
  const said = `${install.stderr ?? ''}`.split('\n').find((l) => l.trim() && !/^\s+at /.test(l))?.trim();
  const cause = install.error?.code === 'ETIMEDOUT' ? 'no download within 15 minutes' : said && !/fetch failed/.test(said) ? said : await probe(mirror);
  process.stderr.write(`${failureLine({ task, host, cause })}\n`);
  return 1;
}

if (process.argv[1] && fs.realpathSync(process.argv[1]) === fs.realpathSync(fileURLToPath(import.meta.url))) process.exitCode = await main();
