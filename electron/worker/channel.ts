// The worker's line to its engine: Node's IPC when forked, `process.parentPort` when the
// desktop app starts it as an Electron utility process. The rest of the runtime sees only this.
import type { FromWorker, ToWorker } from '../worker-protocol/protocol.js';

export interface Channel {
  send(message: FromWorker): void;
  onMessage(listener: (message: ToWorker) => void): void;
  /** The engine is gone (its end closed). */
  onClose(listener: () => void): void;
  close(): void;
}

interface ParentPort {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (e: { data: unknown }) => void): void;
}

export function connect(): Channel {
  const port = (process as unknown as { parentPort?: ParentPort }).parentPort;
  if (port) {
    return {
      send: (m) => port.postMessage(m),
      onMessage: (l) => port.on('message', (e) => l(e.data as ToWorker)),
      // A utility process has no channel that closes when the app dies abruptly, and the job's
      // process group would outlive it. Being re-parented is the sign the app is gone.
      onClose: (l) => {
        const parent = process.ppid;
        setInterval(() => process.ppid !== parent && l(), 2000).unref();
      },
      // postMessage is asynchronous: exiting at once could drop the last `done`, and the job
      // would run again. The port keeps the process alive, so end it a moment later.
      close: () => void setTimeout(() => process.exit(process.exitCode ?? 0), 250),
    };
  }
  if (!process.send) throw new Error('the Lanes worker runtime must be started by the Lanes engine');
  return {
    send: (m) => process.connected && process.send!(m),
    onMessage: (l) => process.on('message', (m) => l(m as ToWorker)),
    onClose: (l) => process.on('disconnect', l),
    close: () => process.connected && process.disconnect(),
  };
}
