// Workers under Electron run as utility processes: Chromium's service processes running Electron's
// own Node, so a person needs no Node installed. Same WorkerProcess shape as the engine's forked
// children (utility-worker.ts), so the engine does not know which it has. The worker runtime finds
// its line to us on `process.parentPort` (electron/worker/channel.ts) instead of `process.send`.
import { utilityProcess } from 'electron';
import type { LaunchOptions, WorkerLauncher, WorkerProcess } from '../engine/index.js';
import { UtilityWorker, cleanEnv } from './utility-worker.js';

export function utilityLauncher(baseEnv: NodeJS.ProcessEnv = process.env): WorkerLauncher {
  return { launch: (options) => launchUtility(options, baseEnv) };
}

function launchUtility({ entry, env, name }: LaunchOptions, baseEnv: NodeJS.ProcessEnv): WorkerProcess {
  const child = utilityProcess.fork(entry, [name], {
    env: cleanEnv({ ...baseEnv, ...env }),
    // Shows in Activity Monitor / Task Manager and app.getAppMetrics() as e.g. lanes-worker:ml.
    serviceName: name,
    // The runtime writes diagnostics to stderr; job output goes to log files, not through here.
    stdio: 'inherit',
  });
  const worker = new UtilityWorker(child);
  child.once('spawn', () => worker.spawned());
  child.once('exit', (code) => worker.exited(code));
  child.on('message', (message: unknown) => worker.received(message));
  return worker;
}
