// A worker running as an Electron utility process, shaped as the engine's WorkerProcess, without
// Electron: utility-launcher.ts forks the process and forwards its events here, so what happens
// on send after exit, on an exit before spawn, and on kill is decided (and tested) under Node.
import { checkMessage, type WorkerProcess, type WorkerSaid } from '../engine/index.js';
import type { ToWorker } from '../worker-protocol/protocol.js';

/** What is used of Electron's UtilityProcess. */
export interface UtilityChild {
  readonly pid: number | undefined;
  postMessage(message: ToWorker): void;
  kill(): boolean;
}

/** Electron takes string values only; an unset variable is left out rather than sent as "undefined". */
export function cleanEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value;
  return out;
}

export class UtilityWorker implements WorkerProcess {
  private exitedAlready = false;
  private knownPid: number | undefined;
  private readonly messageListeners: ((said: WorkerSaid) => void)[] = [];
  private readonly exitListeners: ((code: number | null, signal: string | null) => void)[] = [];

  constructor(
    private readonly child: UtilityChild,
    private readonly platform: NodeJS.Platform = process.platform,
    private readonly signal: (pid: number, signal: NodeJS.Signals) => void = (pid, signal) => process.kill(pid, signal),
  ) {
    this.knownPid = child.pid;
  }

  get pid(): number | undefined {
    return this.knownPid;
  }

  send(message: ToWorker): void {
    // Messages posted before 'spawn' are queued by Electron; after exit they would throw.
    if (!this.exitedAlready) this.child.postMessage(message);
  }

  onMessage(listener: (said: WorkerSaid) => void): void {
    this.messageListeners.push(listener);
  }

  onExit(listener: (code: number | null, signal: string | null) => void): void {
    this.exitListeners.push(listener);
  }

  kill(): void {
    if (this.exitedAlready) return;
    // UtilityProcess.kill() is SIGTERM, which a busy worker may take its time over; the contract
    // here is "at once", so SIGKILL where signals exist. Electron still reaps it.
    if (this.knownPid !== undefined && this.platform !== 'win32') {
      try {
        this.signal(this.knownPid, 'SIGKILL');
        return;
      } catch {
        // Already gone: fall through to Electron's own kill, which is then a no-op.
      }
    }
    this.child.kill();
  }

  /** Electron's 'spawn': the pid is known from here. */
  spawned(): void {
    this.knownPid = this.child.pid;
  }

  /** Electron's 'message': anything the process posted, checked once for every listener. */
  received(message: unknown): void {
    const said = checkMessage(message);
    for (const listener of this.messageListeners) listener(said);
  }

  /** Electron's 'exit': fires once, even for a process that ended before 'spawn' (a bad entry). */
  exited(code: number): void {
    if (this.exitedAlready) return;
    this.exitedAlready = true;
    for (const listener of this.exitListeners) listener(code, null);
  }
}
