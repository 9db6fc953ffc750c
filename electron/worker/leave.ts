// How a worker process goes, whichever loop it runs (a local lane's, or a shared lane's that takes
// its jobs from Redis): its worker command and job starter end, the channel closes, and the process
// exits once the last message has had a moment to flush.
import type { Channel } from './channel.js';
import type { PersistentCommand } from './persistent.js';
import { ENGINE_VAR, endJob, type JobRef } from '../job-control/containment.js';
import { stopJobStarter } from './shell-job.js';

export function leaveProcess(code: number, channel: Channel, persistent: PersistentCommand | null): void {
  persistent?.stop();
  stopJobStarter();
  process.exitCode = code;
  channel.close();
  // Then go, even if a stray handle would keep the loop alive.
  setTimeout(() => process.exit(code), 1000).unref();
}

/**
 * The engine went away (stopped or killed): the running job's processes must not outlive it. They
 * are ended, then the process goes; in any case within two seconds.
 */
export function leaveOrphaned(persistent: PersistentCommand | null, running: { job: JobRef; pgid: number | undefined } | null, cgroupBase: string | null): void {
  persistent?.stop();
  stopJobStarter();
  const ending = running ? endJob(running.job, { engine: process.env[ENGINE_VAR] ?? '', pgids: running.pgid === undefined ? [] : [running.pgid], cgroupBase }) : Promise.resolve();
  void ending.finally(() => process.exit(0));
  setTimeout(() => process.exit(0), 2_000).unref();
}
