// How far running jobs have got, as their workers relay it: the latest report per job, written to
// the store and announced together every PROGRESS_FLUSH_MS (one transaction, one `progress` event
// per job that moved), so a job reporting without pause costs the engine a few rows a second and
// its clients a few events. Progress is news, not a record: a write that fails is dropped, and
// the next report says it again.
import type { JobProgress, JobSummary } from '../../../shared/model.js';
import type { LanesEvent } from '../../../shared/events.js';
import type { ProgressHeard } from '../workers/pool-types.js';
import { plural } from '../../../shared/format.js';

/** Reports are written and announced together at most this often. */
const PROGRESS_FLUSH_MS = 250;

export interface ProgressBoardDeps {
  /** The local store's write of the latest reports; the summaries of the jobs still on that run. */
  write(reports: { id: number; attempt: number; progress: JobProgress }[]): JobSummary[];
  /** Whether the lane's jobs are in the local store (a shared lane's are not). */
  local(lane: string): boolean;
  /** A shared lane's job's latest report, for its queue (BullMQ's own progress). */
  shared?(lane: string, id: number, progress: JobProgress): void;
  announce(summary: JobSummary): void;
  now(): number;
  log(line: string): void;
  flushMs?: number;
}

interface Latest {
  attempt: number;
  lane: string;
  progress: JobProgress;
}

export class ProgressBoard {
  private readonly latest = new Map<number, Latest>();
  /** Per running job, its reports not read so far in the run of that attempt. */
  private readonly ignored = new Map<number, { attempt: number; count: number }>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly d: ProgressBoardDeps) {}

  heard(r: ProgressHeard): void {
    const before = this.ignored.get(r.jobId);
    const ignored = (before?.attempt === r.attempt ? before.count : 0) + r.ignored;
    if (ignored > 0) this.ignored.set(r.jobId, { attempt: r.attempt, count: ignored });
    this.latest.set(r.jobId, { attempt: r.attempt, lane: r.lane, progress: { ...r.progress, at: this.d.now(), ...(ignored > 0 ? { ignored } : {}) } });
    this.timer ??= setTimeout(() => this.flush(), this.d.flushMs ?? PROGRESS_FLUSH_MS);
  }

  /**
   * Follows the engine's events: a job that left its run has nothing more to say of it, but what
   * it said last (its worker sends that just before the outcome) is written now, not dropped.
   */
  readonly observe = (e: LanesEvent): void => {
    if (e.type === 'job' && e.data.state !== 'running') {
      // Not inside this event's own delivery: every listener hears of the outcome first.
      if (this.latest.has(e.data.id)) queueMicrotask(() => this.flush());
      this.ignored.delete(e.data.id);
    }
  };

  /** Writes what was heard since the last time, and announces it. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.latest.size === 0) return;
    const all = [...this.latest];
    this.latest.clear();
    // A shared lane's jobs are not in the local store: their queue keeps what they say.
    for (const [id, l] of all) if (!this.d.local(l.lane)) this.d.shared?.(l.lane, id, l.progress);
    const reports = all.filter(([, l]) => this.d.local(l.lane)).map(([id, l]) => ({ id, attempt: l.attempt, progress: l.progress }));
    if (reports.length === 0) return;
    let summaries: JobSummary[];
    try {
      summaries = this.d.write(reports);
    } catch (error) {
      this.d.log(`progress of ${plural(reports.length, 'job')} was not written: ${(error as Error).message}`);
      return;
    }
    for (const s of summaries) this.d.announce(s);
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
