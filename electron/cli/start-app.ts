// `lanes open` with no engine running: start the installed app (find-app.ts says where to look)
// for this data directory, and wait, bounded, until its engine answers.
import { spawn } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { LanesError } from '../../shared/errors.js';
import { connect } from './connect.js';
import { appPlaces } from './find-app.js';
import { standalone } from './standalone.js';
import type { WindowAddress } from '../../shared/client/http.js';

/** An app's first start (Electron, then the engine's first pass) on a slow machine, with room. */
export const APP_START_MS = 60_000;
const POLL_MS = 250;

/** Starts the app, detached, on `dataDir`; returns where it was found, or null when it was not. */
export function startApp(dataDir: string): string | null {
  const found = appPlaces({ platform: process.platform, exe: standalone ? realpathSync(process.execPath) : null, env: process.env, home: homedir() }).find((p) => existsSync(p.where));
  if (!found) return null;
  // The app reads its data directory from LANES_DATA_DIR, as the CLI does.
  const child = spawn(found.command, found.args, { detached: true, stdio: 'ignore', env: { ...process.env, LANES_DATA_DIR: dataDir } });
  child.on('error', () => {});
  child.unref();
  return found.where;
}

/** The window's address once an engine answers for `dataDir`, or the last refusal after `ms`. */
export async function windowWhenUp(dataDir: string, ms = APP_START_MS): Promise<WindowAddress> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      return await connect(dataDir).window();
    } catch (error) {
      if (!(error instanceof LanesError && error.code === 'unavailable') || Date.now() > deadline) throw error;
    }
    await new Promise((done) => setTimeout(done, POLL_MS));
  }
}
