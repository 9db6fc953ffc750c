// Retention, the engine's own: finished jobs past their keep are removed with their logs, every
// log is kept within one total bound, and the space is given back. It runs off the hot path, as
// a pass every little while (policy.ts says how often) made of small steps — one chunk of jobs
// (store/cleaning.ts), one folder of logs, one vacuum step — with a turn of the event loop
// between them, so no step holds the engine for more than a few milliseconds (the longest is
// measured, and `npm run bench` reports it). `lanes clean` goes through the same walk now.
//
// Nothing is left behind, whatever stops the engine: jobs are removed first, and their ids written
// down in the same transaction (store/cleaning.ts); their files go after, and the ids are struck
// off once they have. Each pass first finishes what a pass cut short left written down, and
// whenever the logs are listed (the first pass of a run, then every LOG_CHECK_EVERY) a file of a
// local job the store no longer holds is removed: ids are never given twice, so it is that job's.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { EventHub } from '../event-hub.js';
import type { JobSummary } from '../../../shared/model.js';
import type { CleanedRecord, CleanSelect, FinishedState, JobCleaner } from '../store/cleaning.js';
import type { StoreSpace } from '../store/space.js';
import type { LogFile, LogFiles } from './log-files.js';
import { SHARED_ID_MIN } from '../store/job-ids.js';
import { cutoffs, logsToTrim, nextPassInMs, passEveryMs, type KeepPolicy } from './policy.js';

export interface RetentionDeps {
  cleaner: JobCleaner;
  space: StoreSpace;
  logs: LogFiles;
  events: EventHub;
  keep: KeepPolicy;
  logsMaxBytes: number;
  /** Lane counts moved: the status is published again. */
  changed(): void;
  log(line: string): void;
  now?: () => number;
}

/** What a walk removed. */
export interface CleanResult {
  removed: number;
  byState: Record<FinishedState, number>;
}

/** The logs' bound is looked at every this many passes: listing them is the costly part. */
const LOG_CHECK_EVERY = 5;
/** While jobs are being removed, the file is cut back at most this often (giveSpaceBack). */
const CHECKPOINT_EVERY_MS = 60_000;

export class Retention {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private passes = 0;
  /** A job finished since the last pass began. */
  private active = false;
  private stopped = false;
  /** How long each kind of step held the event loop (wall ms) and worked (CPU ms), for the benchmark and the docs. */
  readonly steps = new Map<string, StepTimes>();
  private lastCheckpoint = 0;
  /**
   * Jobs removed since the file was last cut back. It starts at one: an engine that was killed
   * leaves its WAL as it was, so the first quiet pass of a run cuts it back.
   */
  private uncut = 1;
  /** Finished jobs removed in this run, by passes and by `clean`. */
  private removed = 0;
  private readonly now: () => number;

  constructor(private readonly d: RetentionDeps) {
    this.now = d.now ?? Date.now;
  }

  get everyMs(): number {
    return passEveryMs(this.d.keep);
  }

  /**
   * The first pass soon after start (an engine left off for a while has work waiting). Then one
   * every `everyMs` while jobs finish; once none has since the last pass, the next waits for the
   * first moment anything could be past its keep (the oldest job's queueing plus the shortest
   * keep), so an idle engine holds no clock of retention's (docs/retention.md).
   */
  start(): void {
    this.schedule(Math.min(this.everyMs, 5_000));
  }

  /** A job finished: retention looks within `everyMs`, as long as jobs keep finishing. */
  finished(): void {
    this.active = true;
    if (!this.timer && !this.stopped) this.schedule(this.everyMs);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.active = false;
      void this.pass().finally(() => this.scheduleNext());
    }, ms);
    this.timer.unref();
  }

  private scheduleNext(): void {
    if (this.stopped || this.timer) return;
    const ms = nextPassInMs(this.d.keep, { jobsFinished: this.active, oldestQueuedAt: this.d.cleaner.oldestQueuedAt(), now: this.now() });
    if (ms !== null) this.schedule(ms);
  }

  /** One pass now (after any that is running): what is past its keep, the logs' bound, the space. */
  pass(): Promise<void> {
    const run = async () => {
      try {
        await this.finishRemovals();
        const { removed } = await this.walk({ before: cutoffs(this.d.keep, this.now()) });
        this.step('bounding the records', () => this.d.cleaner.bound());
        if (++this.passes % LOG_CHECK_EVERY === 1) await this.lookAtLogs();
        await this.giveSpaceBack(removed);
      } catch (error) {
        // A failed pass costs nothing kept; the next one tries again.
        this.d.log(`retention: a cleaning pass failed: ${(error as Error).message}`);
      }
    };
    const next = (this.running ?? Promise.resolve()).then(run);
    this.running = next;
    return next;
  }

  /** `lanes clean`: finished jobs of a lane and/or state, finished before `before` (now, by default), removed now. */
  async clean(lane: string | undefined, states: readonly FinishedState[], before: number): Promise<CleanResult> {
    const select: CleanSelect = { lane, before: Object.fromEntries(states.map((s) => [s, before])) };
    // After a pass that is running, so the two never walk the same ids at once.
    const result = (this.running ?? Promise.resolve()).then(() => this.walk(select));
    this.running = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
    if (this.removed === 0) return;
    const steps = [...this.steps].map(([what, t]) => `${what}: ${t.text()}`);
    this.d.log(`retention: removed ${this.removed} finished jobs in this run; how long each kind of step held the engine: ${steps.join('; ')}`);
  }

  /** Every chunk of the walk in turn, its logs removed and its jobs announced, a turn between chunks. */
  private async walk(select: CleanSelect): Promise<CleanResult> {
    const result: CleanResult = { removed: 0, byState: { succeeded: 0, failed: 0, cancelled: 0 } };
    for (let from: number | null = 0; from !== null && !this.stopped; ) {
      const at: number = from;
      const { removed, failed, next }: { removed: CleanedRecord[]; failed: JobSummary[]; next: number | null } = this.step('a chunk of jobs', () => this.d.cleaner.chunk(select, at, this.now()));
      from = next;
      for (const job of failed) this.d.events.emit('job', job);
      if (removed.length > 0) {
        await this.removeLogsOf(removed.map((r) => r.id));
        this.announce(removed);
        result.removed += removed.length;
        this.removed += removed.length;
        for (const r of removed) result.byState[r.state]++;
      }
      await nextTurn();
    }
    return result;
  }

  /** Removed jobs' files, then their ids struck off what is still to remove. */
  private async removeLogsOf(ids: number[]): Promise<void> {
    await this.d.logs.remove(ids);
    this.step('striking off removed logs', () => this.d.cleaner.logsRemoved(ids));
  }

  /** What an earlier pass removed from the store but not yet from the disk (it was cut short). */
  private async finishRemovals(): Promise<void> {
    for (let ids = this.d.cleaner.logsPending(); ids.length > 0 && !this.stopped; ids = this.d.cleaner.logsPending()) {
      await this.removeLogsOf(ids);
      await nextTurn();
    }
  }

  private announce(removed: CleanedRecord[]): void {
    this.d.events.emit('jobs', { ids: removed.map((r) => r.id), change: 'removed' });
    this.d.changed();
  }

  /**
   * Every log file, looked at: those of jobs the store no longer holds go (left by a crash, or by
   * an older Lanes), then all that are left are kept within their bound.
   */
  private async lookAtLogs(): Promise<void> {
    const listed = await this.d.logs.list();
    const kept = new Set<number>();
    const orphans = await this.d.logs.removeOrphans(listed, (ids) => {
      const some = this.step('finding kept jobs', () => this.d.cleaner.keptAmong(ids));
      for (const id of some) kept.add(id);
      return some;
    });
    if (orphans > 0) {
      this.d.log(`retention: removed ${orphans} log files of jobs that were already gone`);
      await this.d.logs.tidy();
    }
    await this.boundLogs(orphans > 0 ? listed.filter((f) => kept.has(f.id) || f.id >= SHARED_ID_MIN) : listed);
  }

  /** All logs over their bound: the oldest finished jobs' logs go, and their records say so. */
  private async boundLogs(files: LogFile[]): Promise<void> {
    const total = files.reduce((n, f) => n + f.bytes, 0);
    if (total <= this.d.logsMaxBytes) return;
    const ids = [...new Set(files.map((f) => f.id))];
    const finished = new Set<number>();
    for (let i = 0; i < ids.length; i += 2_000) for (const id of this.step('finding finished jobs', () => this.d.cleaner.finishedAmong(ids.slice(i, i + 2_000)))) finished.add(id);
    const trim = logsToTrim(files, finished, this.d.logsMaxBytes);
    for (let i = 0; i < trim.length; i += 2_000) {
      const some = trim.slice(i, i + 2_000);
      this.step('marking logs trimmed', () => this.d.cleaner.markLogsTrimmed(some));
      await this.d.logs.remove(some);
      await nextTurn();
    }
    await this.d.logs.tidy();
    this.d.log(`retention: logs were ${Math.round(total / 1_048_576)} MiB, over their bound of ${Math.round(this.d.logsMaxBytes / 1_048_576)} MiB; ${trim.length} oldest finished jobs' logs removed`);
  }

  /**
   * Freed pages back to the disk a step at a time. The file shrinks at a checkpoint, which syncs
   * the database (tens of ms on a busy disk): an explicit one only after a pass that removed
   * nothing (the engine is quiet), or at most once a minute; the WAL's own checkpoints come in
   * between, and journal_size_limit keeps the WAL small.
   */
  private async giveSpaceBack(removed: number): Promise<void> {
    if (this.step('switching to incremental vacuum', () => this.d.space.switchIfSmall())) this.d.log('retention: the database now gives freed space back (auto_vacuum incremental)');
    while (!this.stopped && this.step('a vacuum step', () => this.d.space.step())) await nextTurn();
    this.uncut += removed;
    const now = this.now();
    if (this.uncut > 0 && (removed === 0 || now - this.lastCheckpoint >= CHECKPOINT_EVERY_MS)) {
      this.step('a checkpoint', () => this.d.space.checkpoint());
      this.lastCheckpoint = now;
      this.uncut = 0;
    }
  }

  /** A synchronous step, timed: the event loop is held for exactly this long. */
  private step<T>(what: string, fn: () => T): T {
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    try {
      return fn();
    } finally {
      const cpu = process.cpuUsage(cpu0);
      let times = this.steps.get(what);
      if (!times) this.steps.set(what, (times = new StepTimes()));
      times.add(performance.now() - t0, (cpu.user + cpu.system) / 1000);
    }
  }
}

/** One kind of step's times: every one's wall time up to a sample of 10,000 (then a reservoir), and the longest. */
export class StepTimes {
  private readonly wall: number[] = [];
  private n = 0;
  longestMs = 0;
  longestCpuMs = 0;

  add(wallMs: number, cpuMs: number): void {
    this.n++;
    this.longestMs = Math.max(this.longestMs, wallMs);
    this.longestCpuMs = Math.max(this.longestCpuMs, cpuMs);
    if (this.wall.length < 10_000) this.wall.push(wallMs);
    else {
      const i = Math.floor(Math.random() * this.n);
      if (i < this.wall.length) this.wall[i] = wallMs;
    }
  }

  /** "median 2.1 ms, 99th 9.0 ms, longest 31.0 ms (its CPU at most 12.0 ms), 2,041 steps". */
  text(): string {
    const s = [...this.wall].sort((a, b) => a - b);
    const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
    return `median ${at(0.5).toFixed(1)} ms, 99th ${at(0.99).toFixed(1)} ms, longest ${this.longestMs.toFixed(1)} ms (its CPU at most ${this.longestCpuMs.toFixed(1)} ms), ${this.n} steps`;
  }
}
