// Lanes, and their job counts (kept by counts.ts). The lane list is read on every sizer pass and status,
// so it is kept in memory and refreshed by this store's own writes: no caller can forget to.
import type { LaneClass, LaneSettings, NudgeRestWhy, Paused } from '../../../shared/model.js';
import type { JobCounts, LaneCounts } from './counts.js';
import { durably, type Db } from './db.js';

/** A stored lane: what a person set (the status carries the same fields), and what the engine keeps of it. */
export interface LaneRow extends LaneSettings {
  /** The nudge is quiet until then, unless the backlog grows past `nudgeQuietBacklog` (sizer/nudge.ts). */
  nudgeQuietUntil: number | null;
  nudgeQuietBacklog: number | null;
  /** Why it is quiet (absent or null: not said — an older Lanes quieted it). */
  nudgeQuietWhy?: NudgeRestWhy | null;
  /** Where its queue lives when shared with other engines; null: in this store. */
  queue: SharedQueueConfig | null;
  /** Paused by itself (not all work): since when, until when (null: until resumed). Absent or null: not paused. */
  paused?: Paused | null;
}

/** The lane's own pause as of `now`, or null: one whose end has come is over, whether or not the row says so yet. */
export const pausedNow = (l: Pick<LaneRow, 'paused'>, now: number): Paused | null => (l.paused && (l.paused.until === null || l.paused.until > now) ? l.paused : null);

/** A shared lane's queue: the Redis URL as given (password included: never shown), and whether a non-loopback Redis without a password was allowed. */
export interface SharedQueueConfig {
  redis: string;
  insecure: boolean;
}

export type { LaneCounts } from './counts.js';

/**
 * What a person set of a lane, for its status: named one by one, so a field the engine keeps for
 * itself (a shared queue's Redis password) never goes out by being added to the row.
 */
export const settingsOf = (l: LaneRow): LaneSettings => ({ name: l.name, class: l.class, cap: l.cap, workerCommand: l.workerCommand, workerCwd: l.workerCwd, timeoutMs: l.timeoutMs });

interface RawLane {
  name: string;
  class: LaneClass;
  cap: number;
  worker_command: string | null;
  worker_cwd: string | null;
  timeout_ms: number | null;
  nudge_quiet_until: number | null;
  nudge_quiet_backlog: number | null;
  nudge_quiet_why: string | null;
  queue: string | null;
  paused_since: number | null;
  paused_until: number | null;
}

/** A stored reason read back: one this Lanes does not know reads as none. */
const restWhy = (v: string | null): NudgeRestWhy | null => (v === 'cap' || v === 'snooze' || v === 'dismiss' ? v : null);

const toLane = (r: RawLane): LaneRow => ({
  name: r.name,
  class: r.class,
  cap: r.cap,
  workerCommand: r.worker_command === null ? null : (JSON.parse(r.worker_command) as string[]),
  workerCwd: r.worker_cwd,
  timeoutMs: r.timeout_ms,
  nudgeQuietUntil: r.nudge_quiet_until,
  nudgeQuietBacklog: r.nudge_quiet_backlog,
  nudgeQuietWhy: restWhy(r.nudge_quiet_why),
  queue: r.queue === null ? null : (JSON.parse(r.queue) as SharedQueueConfig),
  paused: r.paused_since === null ? null : { since: r.paused_since, until: r.paused_until },
});

export class LaneStore {
  private readonly all;
  private readonly insert;
  private readonly updateCap;
  private readonly deleteLane;
  private readonly deleteJobs;
  private readonly updateQuiet;
  private readonly updatePause;

  constructor(
    private readonly db: Db,
    private readonly counts: JobCounts,
  ) {
    this.all = db.prepare<[], RawLane>('SELECT name, class, cap, worker_command, worker_cwd, timeout_ms, nudge_quiet_until, nudge_quiet_backlog, nudge_quiet_why, queue, paused_since, paused_until FROM lanes ORDER BY created_at, rowid');
    this.updatePause = db.prepare('UPDATE lanes SET paused_since = ?, paused_until = ? WHERE name = ?');
    this.updateQuiet = db.prepare('UPDATE lanes SET nudge_quiet_until = ?, nudge_quiet_backlog = ?, nudge_quiet_why = ? WHERE name = ?');
    this.insert = db.prepare('INSERT INTO lanes (name, class, cap, worker_command, worker_cwd, timeout_ms, queue, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
    this.updateCap = db.prepare('UPDATE lanes SET cap = ? WHERE name = ?');
    this.deleteLane = db.prepare('DELETE FROM lanes WHERE name = ?');
    this.deleteJobs = db.prepare<[string], { id: number }>('DELETE FROM jobs WHERE lane = ? RETURNING id');
    this.cached = this.all.all().map(toLane);
  }

  private cached: LaneRow[];

  /** Lanes in the order they were added. */
  list(): readonly LaneRow[] {
    return this.cached;
  }

  find(name: string): LaneRow | undefined {
    return this.cached.find((l) => l.name === name);
  }

  add(lane: LaneRow, now: number): void {
    durably(this.db, () => {
      this.insert.run(lane.name, lane.class, lane.cap, lane.workerCommand ? JSON.stringify(lane.workerCommand) : null, lane.workerCwd, lane.timeoutMs, lane.queue ? JSON.stringify(lane.queue) : null, now);
    });
    this.reload();
  }

  setCap(name: string, cap: number): void {
    durably(this.db, () => this.updateCap.run(cap, name));
    this.reload();
  }

  /** Quiets the lane's nudge until `until`, unless its backlog grows past `backlog`, for `why`; null lifts it. */
  setQuiet(name: string, quiet: { until: number; backlog: number; why: NudgeRestWhy } | null): void {
    this.updateQuiet.run(quiet?.until ?? null, quiet?.backlog ?? null, quiet?.why ?? null, name);
    this.reload();
  }

  /** Pauses the lane by itself (until `paused.until`, or until resumed), or lifts its pause (null). */
  setPause(name: string, paused: Paused | null): void {
    durably(this.db, () => this.updatePause.run(paused?.since ?? null, paused?.until ?? null, name));
    this.reload();
  }

  /** Removes the lane and its finished jobs; returns the ids whose logs can go. */
  remove(name: string): number[] {
    const ids = durably(this.db, () => {
      const gone = this.deleteJobs.all(name).map((r) => r.id);
      this.deleteLane.run(name);
      return gone;
    });
    this.counts.forget(name);
    this.reload();
    return ids;
  }

  private reload(): void {
    this.cached = this.all.all().map(toLane);
  }

  /** Counts per lane, kept in memory: no read of the store. */
  allCounts(): ReadonlyMap<string, LaneCounts> {
    return this.counts.all();
  }
}
