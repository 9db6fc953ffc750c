// Without a cgroup per job, a process that leaves its job's group and closes its output (a
// daemon started by a job) is not noticed when the job ends. This finds such processes by the
// job id they still carry, a few seconds after jobs have finished, and ends those whose job and
// attempt are not running any more. It looks only after work, never while the engine is idle.
import { killQuietly, processesOfJobs, type JobRef } from '../../job-control/containment.js';

export const SWEEP_AFTER_MS = 5_000;

export class EscapeeSweep {
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    /** The jobs running now, as `id:attempt`. */
    private readonly running: () => Set<string>,
    private readonly log: (line: string) => void,
    /** This engine's id, as its jobs' processes carry it: another engine's jobs are not escapees of ours. */
    private readonly engine: string,
  ) {}

  /** A job finished: look in a moment. */
  soon(): void {
    if (this.timer || this.stopped) return;
    this.timer = setTimeout(() => void this.sweep(), SWEEP_AFTER_MS);
    this.timer.unref();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  private async sweep(): Promise<void> {
    this.timer = null;
    const running = this.running();
    const left = await processesOfJobs(this.engine, (j: JobRef) => !running.has(`${j.id}:${j.attempt}`));
    for (const pid of left) killQuietly(pid);
    if (left.length > 0) this.log(`ended ${left.length} process(es) that outlived their job`);
  }
}
