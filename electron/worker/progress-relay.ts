// What the running job says of how far it has got, passed on to the engine: each report read
// once (shared/progress.ts), the latest of them sent at most once per PROGRESS_SEND_MS, so a job
// that reports ten thousand times a second costs the engine ten messages. A report that is not
// progress, or not for the job in hand, is counted and otherwise ignored: it never fails the job.
import { readProgress, type ProgressReport } from '../../shared/progress.js';
import { PROGRESS_SEND_MS, type FromWorker } from '../worker-protocol/protocol.js';

interface InHand {
  id: number;
  attempt: number;
}

export class ProgressRelay {
  private job: InHand | null = null;
  /** The latest report not sent yet. */
  private pending: ProgressReport | null = null;
  /** Reports not read since the last message. */
  private ignored = 0;
  private lastSent = -Infinity;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly send: (m: Extract<FromWorker, { t: 'progress' }>) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** A job went to its process: reports are for it from now on. */
  begin(job: InHand): void {
    this.end();
    this.job = { id: job.id, attempt: job.attempt };
  }

  /** A report, as the job sent it; `jobId`: the job it names (a persistent command's line). Null: read; else why it was ignored. */
  report(raw: unknown, jobId?: number): string | null {
    if (!this.job) return 'no job is running';
    const reading = jobId === undefined || jobId === this.job.id ? readProgress(raw) : { ok: false as const, why: `job ${jobId} is not the one running` };
    if (!reading.ok) {
      this.ignored++;
      return reading.why;
    }
    this.pending = reading.report;
    this.schedule();
    return null;
  }

  /** The job ended: what it said last goes before its outcome does. */
  end(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.flush();
    this.job = null;
    this.pending = null;
    this.ignored = 0;
    this.lastSent = -Infinity;
  }

  private schedule(): void {
    if (this.timer) return;
    const wait = this.lastSent + PROGRESS_SEND_MS - this.now();
    if (wait <= 0) return this.flush();
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush();
    }, wait);
  }

  /** Ignored reports travel with the next one read: alone, they say nothing of how far it has got. */
  private flush(): void {
    if (!this.job || !this.pending) return;
    this.send({ t: 'progress', jobId: this.job.id, attempt: this.job.attempt, progress: this.pending, ignored: this.ignored });
    this.pending = null;
    this.ignored = 0;
    this.lastSent = this.now();
  }
}
