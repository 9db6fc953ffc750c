// What runs a worker's jobs, whichever loop hands them over (a local lane's engine, or BullMQ for a
// shared lane): the lane's persistent worker command, or each job as a process of its own, with a
// socket for its `lanes progress` that hears only the job running now.
import type { JobAssignment } from '../worker-protocol/protocol.js';
import { PersistentCommand } from './persistent.js';
import type { ProgressRelay } from './progress-relay.js';
import { newToken, openProgressSocket, type ProgressSocket } from './progress-socket.js';
import { runShellJob, type RunningProcess } from './shell-job.js';

export class JobRunner {
  readonly persistent: PersistentCommand | null;
  private readonly socket: ProgressSocket | null;
  /** The running job's token: what its `lanes progress` shows to be heard. */
  private token: string | null = null;

  constructor(
    private readonly relay: ProgressRelay,
    command: string | undefined,
    private readonly logCap: number,
    cwd: string | undefined,
    private readonly cgroupBase: string | null,
  ) {
    this.persistent = command ? new PersistentCommand(JSON.parse(command) as string[], logCap, cwd, cgroupBase, (jobId, raw) => void relay.report(raw, jobId)) : null;
    this.socket = this.persistent
      ? null
      : openProgressSocket((given, raw) => {
          if (this.token === null || given !== this.token) return 'ignored: not the job this worker runs now';
          const why = relay.report(raw);
          return why === null ? 'ok' : `ignored: ${why}`;
        });
  }

  /** Starts `job`; what it reports from now on is passed on. Throws when it cannot start. */
  start(job: JobAssignment): RunningProcess {
    this.relay.begin(job);
    this.token = this.socket ? newToken() : null;
    const progress = this.socket && this.token ? { socket: this.socket.path, token: this.token } : undefined;
    return this.persistent ? this.persistent.run(job) : runShellJob(job, this.logCap, this.cgroupBase, progress);
  }

  /** The job ended (or never started): nothing more of it is heard. */
  ended(): void {
    this.token = null;
    this.relay.end();
  }
}
