// Workers' reports (a job done, started or dropped, a pull for more) wait until the end of the event-loop turn
// and are written together: under load several arrive in one turn, and one transaction for all
// of them writes the pages they share once. A report is never held longer than that turn.
import type { FromWorker } from '../../worker-protocol/protocol.js';

/** What a worker says that the store must record: asking for work, a job done, started or dropped. */
export type TurnMessage = Extract<FromWorker, { t: 'pull' | 'done' | 'started' | 'dropped' }>;

export interface PendingReport<W> {
  worker: W;
  message: TurnMessage;
}

export class ReportBatch<W> {
  private pending: PendingReport<W>[] = [];
  private scheduled = false;

  constructor(
    private readonly write: (reports: PendingReport<W>[]) => void,
    /** Writing them failed (not a full disk: a bug): the workers that sent them are ended. */
    private readonly failed: (reports: PendingReport<W>[], error: unknown) => void,
  ) {}

  add(worker: W, message: TurnMessage): void {
    this.pending.push({ worker, message });
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  /** Writes what is pending now (also used before a worker's exit is handled, to keep order). */
  flush(): void {
    this.scheduled = false;
    if (this.pending.length === 0) return;
    const reports = this.pending;
    this.pending = [];
    try {
      this.write(reports);
    } catch (error) {
      this.failed(reports, error);
    }
  }
}
