// One small interface for "a worker process": under Node it is a forked child; the desktop app
// supplies an Electron utility-process implementation of the same shape (electron/shell).
import { fork } from 'node:child_process';
import type { ToWorker } from '../../worker-protocol/protocol.js';
import { checkMessage, type WorkerSaid } from './messages.js';

export interface WorkerProcess {
  /** OS process id once known (a utility process reports it after spawn). */
  readonly pid: number | undefined;
  send(message: ToWorker): void;
  /** Each message, checked where it comes in (messages.ts): a launcher delivers nothing unchecked. */
  onMessage(listener: (said: WorkerSaid) => void): void;
  /** Called once, however the process ended. */
  onExit(listener: (code: number | null, signal: string | null) => void): void;
  /** Ends the process at once (SIGKILL where signals exist). */
  kill(): void;
}

export interface LaunchOptions {
  /** Absolute path of the worker runtime's entry script. */
  entry: string;
  env: Record<string, string>;
  /** A readable name for process lists: `lanes-worker:<lane>`. */
  name: string;
}

export interface WorkerLauncher {
  launch(options: LaunchOptions): WorkerProcess;
}

export const nodeLauncher: WorkerLauncher = {
  launch({ entry, env, name }) {
    const child = fork(entry, [name], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      // The worker exits by itself when the engine's IPC channel closes; it must not outlive
      // an engine that was killed, so it is not detached.
      detached: false,
    });
    let exited = false;
    const exitListeners: ((code: number | null, signal: string | null) => void)[] = [];
    const finish = (code: number | null, signal: string | null) => {
      if (exited) return;
      exited = true;
      for (const l of exitListeners) l(code, signal);
    };
    child.on('exit', finish);
    // 'error' also comes for a message sent as the child exits; only one that never started is over.
    child.on('error', () => {
      if (child.pid === undefined) finish(null, 'spawn-error');
    });
    return {
      get pid() {
        return child.pid;
      },
      send(message) {
        if (child.connected) child.send(message);
      },
      onMessage(listener) {
        child.on('message', (m) => listener(checkMessage(m)));
      },
      onExit(listener) {
        exitListeners.push(listener);
      },
      kill() {
        if (!exited) child.kill('SIGKILL');
      },
    };
  },
};
