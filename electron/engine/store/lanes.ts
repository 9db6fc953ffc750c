// Lanes and their maintained job counts.
import type { LaneClass } from '../../../shared/model.js';
import { durably, type Db } from './db.js';

export interface LaneRow {
  name: string;
  class: LaneClass;
  cap: number;
  workerCommand: string[] | null;
  workerCwd: string | null;
}

export interface LaneCounts {
  queued: number;
  running: number;
  succeeded: number;
  failed: number;
  cancelled: number;
}

export const ZERO_COUNTS: LaneCounts = { queued: 0, running: 0, succeeded: 0, failed: 0, cancelled: 0 };

interface RawLane {
  name: string;
  class: LaneClass;
  cap: number;
  worker_command: string | null;
  worker_cwd: string | null;
}

const toLane = (r: RawLane): LaneRow => ({
  name: r.name,
  class: r.class,
  cap: r.cap,
  workerCommand: r.worker_command === null ? null : (JSON.parse(r.worker_command) as string[]),
  workerCwd: r.worker_cwd,
});

export class LaneStore {
  private readonly all;
  private readonly one;
  private readonly insert;
  private readonly updateCap;
  private readonly deleteLane;
  private readonly deleteJobs;
  private readonly counts;

  constructor(private readonly db: Db) {
    this.all = db.prepare<[], RawLane>('SELECT name, class, cap, worker_command, worker_cwd FROM lanes ORDER BY created_at, rowid');
    this.one = db.prepare<[string], RawLane>('SELECT name, class, cap, worker_command, worker_cwd FROM lanes WHERE name = ?');
    this.insert = db.prepare('INSERT INTO lanes (name, class, cap, worker_command, worker_cwd, created_at) VALUES (?, ?, ?, ?, ?, ?)');
    this.updateCap = db.prepare('UPDATE lanes SET cap = ? WHERE name = ?');
    this.deleteLane = db.prepare('DELETE FROM lanes WHERE name = ?');
    this.deleteJobs = db.prepare<[string], { id: number }>('DELETE FROM jobs WHERE lane = ? RETURNING id');
    this.counts = db.prepare<[], LaneCounts & { lane: string }>('SELECT * FROM lane_counts');
  }

  list(): LaneRow[] {
    return this.all.all().map(toLane);
  }

  get(name: string): LaneRow | undefined {
    const row = this.one.get(name);
    return row ? toLane(row) : undefined;
  }

  add(lane: LaneRow, now: number): void {
    durably(this.db, () => {
      this.insert.run(lane.name, lane.class, lane.cap, lane.workerCommand ? JSON.stringify(lane.workerCommand) : null, lane.workerCwd, now);
    });
  }

  setCap(name: string, cap: number): void {
    durably(this.db, () => this.updateCap.run(cap, name));
  }

  /** Removes the lane and its finished jobs; returns the ids whose logs can go. */
  remove(name: string): number[] {
    return durably(this.db, () => {
      const ids = this.deleteJobs.all(name).map((r) => r.id);
      this.deleteLane.run(name);
      return ids;
    });
  }

  /** Counts per lane, kept by triggers: a read of one small row per lane. */
  allCounts(): Map<string, LaneCounts> {
    const map = new Map<string, LaneCounts>();
    for (const { lane, ...c } of this.counts.all()) map.set(lane, c);
    return map;
  }
}
