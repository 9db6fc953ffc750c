// What the engine set for a worker process in its environment, read once at its start by either
// loop (a local lane's, a shared lane's).
import { LOG_CAP_BYTES } from '../../shared/limits.js';
import { WORKER_ENV } from '../worker-protocol/protocol.js';

export interface WorkerSettings {
  /** Bytes of each job's log kept. */
  logCap: number;
  /** The engine's cgroup for its jobs, where it has one. */
  cgroupBase: string | null;
  /** The lane's persistent worker command (JSON argv), if it has one. */
  command: string | undefined;
}

export function workerSettings(env: NodeJS.ProcessEnv): WorkerSettings {
  // The engine runs under umask 077 (its files are private); a job makes files as its user would.
  const umask = env[WORKER_ENV.umask];
  if (umask && /^[0-7]{1,4}$/.test(umask)) process.umask(parseInt(umask, 8));
  return { logCap: Number(env[WORKER_ENV.logCapBytes]) || LOG_CAP_BYTES, cgroupBase: env[WORKER_ENV.cgroup] || null, command: env[WORKER_ENV.command] };
}
