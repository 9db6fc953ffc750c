// Carrying out "Install command line tool…" (the decision is cli-install.ts): the facts it needs
// from this process and the file system, and the copy or the admin-prompted link itself.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cliInstallPlan, installedWords, macAdminScript, type CliInstallFacts, type CliInstallPlan } from './cli-install.js';

/** The first `lanes` on PATH, as its real path, or null. */
export function findOnPath(pathDirs: readonly string[], platform: NodeJS.Platform = process.platform): string | null {
  const names = platform === 'win32' ? ['lanes.exe', 'lanes.cmd', 'lanes.bat'] : ['lanes'];
  for (const dir of pathDirs) {
    for (const name of names) {
      const file = path.join(dir, name);
      try {
        fs.accessSync(file, fs.constants.X_OK);
        if (fs.statSync(file).isFile()) return fs.realpathSync(file);
      } catch {
        // not here
      }
    }
  }
  return null;
}

export function cliInstallFacts(packaged: boolean, env: NodeJS.ProcessEnv = process.env): CliInstallFacts {
  const pathDirs = (env.PATH ?? '').split(path.delimiter).filter(Boolean);
  const exe = process.platform === 'win32' ? 'lanes.exe' : 'lanes';
  return {
    platform: process.platform,
    packaged,
    appImage: env.APPIMAGE,
    // Electron's resources folder; under plain Node (tests) there is none.
    bundledCli: path.join(process.resourcesPath ?? '', 'bin', exe),
    home: os.homedir(),
    pathDirs,
    lanesOnPath: findOnPath(pathDirs),
  };
}

/** A copy written beside its place and renamed over it: a half-written `lanes` never runs. */
function copyInto(from: string, to: string): void {
  fs.mkdirSync(path.dirname(to), { recursive: true });
  const partial = `${to}.partial-${process.pid}`;
  try {
    fs.copyFileSync(from, partial);
    fs.chmodSync(partial, 0o755);
    fs.renameSync(partial, to);
  } finally {
    fs.rmSync(partial, { force: true });
  }
}

function osascript(script: string): Promise<void> {
  return new Promise((done, fail) =>
    execFile('osascript', ['-e', script], (error, _stdout, stderr) => {
      // -128 is the person pressing Cancel at the password prompt.
      if (error) fail(new Error(/-128/.test(stderr) ? 'cancelled' : stderr.trim() || error.message));
      else done();
    }),
  );
}

/** Carries the plan out and returns what to tell the person; throws with the reason when it fails. */
export async function runCliInstall(plan: CliInstallPlan): Promise<string> {
  if (plan.kind === 'copy') copyInto(plan.from, plan.to);
  if (plan.kind === 'adminLink') await osascript(macAdminScript(plan));
  return installedWords(plan);
}

/** Whether the tray should offer the item now, for this process. */
export const offerCliInstall = (packaged: boolean): boolean => cliInstallPlan(cliInstallFacts(packaged)).kind !== 'none';
