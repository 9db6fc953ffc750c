// Lanes and their maintained job counts. The lane list is read on every sizer pass and status,
// so it is kept in memory and refreshed by this store's own writes: no caller can forget to.
import type { LaneClass } from '../../../shared/model.js';
import { durably, type Db } from './db.js';

export interface LaneRow {
  name: string;
  class: LaneClass;
  cap: number;
  workerCommand: string[] | null;
  workerCwd: string | null;
  timeoutMs: number | null;
}

export interface LaneCounts {
  queued: number;
  running: number;
  succeeded: number;
  failed: number;
  cancelled: number;
}

interface RawLane {
  name: string;
  class: LaneClass;
  cap: number;
  worker_command: string | null;
  worker_cwd: string | null;
  timeout_ms: number | null;
}

const toLane = (r: RawLane): LaneRow => ({
  name: r.name,
  class: r.class,
  cap: r.cap,
  workerCommand: r.worker_command === null ? null : (JSON.parse(r.worker_command) as string[]),
  workerCwd: r.worker_cwd,
  timeoutMs: r.timeout_ms,
});

export class LaneStore {
  private readonly all;
  private readonly insert;
  private readonly updateCap;
  private readonly deleteLane;
  private readonly deleteJobs;
  private readonly counts;

  constructor(private readonly db: Db) {
    this.all = db.prepare<[], RawLane>('SELECT name, class, cap, worker_command, worker_cwd, timeout_ms FROM lanes ORDER BY created_at, rowid');
    this.insert = db.prepare('INSERT INTO lanes (name, class, cap, worker_command, worker_cwd, timeout_ms, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
    this.updateCap = db.prepare('UPDATE lanes SET cap = ? WHERE name = ?');
    this.deleteLane = db.prepare('DELETE FROM lanes WHERE name = ?');
    this.deleteJobs = db.prepare<[string], { id: number }>('DELETE FROM jobs WHERE lane = ? RETURNING id');
    this.counts = db.prepare<[], LaneCounts & { lane: string }>('SELECT * FROM lane_counts');
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
      this.insert.run(lane.name, lane.class, lane.cap, lane.workerCommand ? JSON.stringify(lane.workerCommand) : null, lane.workerCwd, lane.timeoutMs, now);
    });
    this.reload();
  }

  setCap(name: string, cap: number): void {
    durably(this.db, () => this.updateCap.run(cap, name));
    this.reload();
  }

  /** Removes the lane and its finished jobs; returns the ids whose logs can go. */
  remove(name: string): number[] {
    const ids = durably(this.db, () => {
      const gone = this.deleteJobs.all(name).map((r) => r.id);
      this.deleteLane.run(name);
      return gone;
    });
    this.reload();
    return ids;
  }

  private reload(): void {
    this.cached = this.all.all().map(toLane);
  }

  /** Counts per lane, kept by triggers: a read of one small row per lane. */
  allCounts(): Map<string, LaneCounts> {
    const map = new Map<string, LaneCounts>();
    for (const { lane, ...c } of this.counts.all()) map.set(lane, c);
    return map;
  }
}
