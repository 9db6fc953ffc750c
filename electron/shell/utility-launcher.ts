// Workers under Electron run as utility processes: Chromium's service processes running Electron's
// own Node, so a person needs no Node installed. Same WorkerProcess shape as the engine's forked
// children, so the engine does not know which it has. The worker runtime finds its line to us on
// `process.parentPort` (electron/worker/channel.ts) instead of `process.send`.
import { utilityProcess } from 'electron';
import type { LaunchOptions, WorkerLauncher, WorkerProcess } from '../engine/index.js';
import type { FromWorker, ToWorker } from '../worker/protocol.js';

export function utilityLauncher(baseEnv: NodeJS.ProcessEnv = process.env): WorkerLauncher {
  return { launch: (options) => launchUtility(options, baseEnv) };
}

function cleanEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value;
  return out;
}

function launchUtility({ entry, env, name }: LaunchOptions, baseEnv: NodeJS.ProcessEnv): WorkerProcess {
  const child = utilityProcess.fork(entry, [name], {
    env: cleanEnv({ ...baseEnv, ...env }),
    // Shows in Activity Monitor / Task Manager and app.getAppMetrics() as e.g. lanes-worker:ml.
    serviceName: name,
    // The runtime writes diagnostics to stderr; job output goes to log files, not through here.
    stdio: 'inherit',
  });
  let exited = false;
  let pid: number | undefined = child.pid;
  const exitListeners: ((code: number | null, signal: string | null) => void)[] = [];
  // A utility process can end before 'spawn' (bad entry); 'exit' still fires, once.
  child.once('spawn', () => {
    pid = child.pid;
  });
  child.once('exit', (code) => {
    exited = true;
    for (const listener of exitListeners) listener(code, null);
  });
  return {
    get pid() {
      return pid;
    },
    send(message: ToWorker) {
      // Messages posted before 'spawn' are queued by Electron; after exit they would throw.
      if (!exited) child.postMessage(message);
    },
    onMessage(listener) {
      child.on('message', (message: unknown) => listener(message as FromWorker));
    },
    onExit(listener) {
      exitListeners.push(listener);
    },
    kill() {
      if (exited) return;
      // UtilityProcess.kill() is SIGTERM, which a busy worker may take its time over; the
      // contract here is "at once", so SIGKILL where signals exist. Electron still reaps it.
      if (pid !== undefined && process.platform !== 'win32') {
        try {
          process.kill(pid, 'SIGKILL');
          return;
        } catch {
          // Already gone: fall through to Electron's own kill, which is then a no-op.
        }
      }
      child.kill();
    },
  };
}
