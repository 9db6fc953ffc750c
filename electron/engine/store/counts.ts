// Per-lane job counts, kept in memory by the store that changes job states, so the hot path
// writes no counter row per job (a trigger per row cost a page write per transaction). They are
// written back when the engine stops, marked exact; an engine that opens the store marks them
// stale until its own clean stop, so after a crash they are counted afresh from the jobs table
// (about half a second per million jobs, once).
import type { JobState } from '../../../shared/model.js';
import { durably, type Db } from './db.js';

export interface LaneCounts {
  queued: number;
  running: number;
  succeeded: number;
  failed: number;
  cancelled: number;
}

export const NO_JOBS: Readonly<LaneCounts> = { queued: 0, running: 0, succeeded: 0, failed: 0, cancelled: 0 };

/** A state change not yet committed: counted only once its transaction is. */
export interface Move {
  lane: string;
  from: JobState | null;
  to: JobState | null;
  n?: number;
}

export class JobCounts {
  private readonly lanes = new Map<string, LaneCounts>();

  constructor(private readonly db: Db) {
    const exact = db.prepare<[], { value: number }>("SELECT value FROM store_flags WHERE name = 'counts_exact'").get()?.value === 1;
    if (exact) {
      for (const { lane, ...c } of db.prepare<[], LaneCounts & { lane: string }>('SELECT * FROM lane_counts').all()) this.lanes.set(lane, { ...c });
    } else {
      for (const r of db.prepare<[], { lane: string; state: JobState; n: number }>('SELECT lane, state, count(*) AS n FROM jobs GROUP BY lane, state').all()) {
        this.of(r.lane)[r.state] += r.n;
      }
    }
    // From now on only this engine knows them, until it writes them back.
    durably(db, () => db.prepare("INSERT OR REPLACE INTO store_flags (name, value) VALUES ('counts_exact', 0)").run());
  }

  get(lane: string): LaneCounts {
    return this.lanes.get(lane) ?? NO_JOBS;
  }

  all(): ReadonlyMap<string, LaneCounts> {
    return this.lanes;
  }

  apply(moves: readonly Move[]): void {
    for (const m of moves) {
      const c = this.of(m.lane);
      const n = m.n ?? 1;
      if (m.from) c[m.from] -= n;
      if (m.to) c[m.to] += n;
    }
  }

  forget(lane: string): void {
    this.lanes.delete(lane);
  }

  /** Written back, marked exact: the next engine reads them instead of counting. */
  save(): void {
    durably(this.db, () => {
      const write = this.db.prepare('INSERT OR REPLACE INTO lane_counts (lane, queued, running, succeeded, failed, cancelled) VALUES (?, ?, ?, ?, ?, ?)');
      this.db.prepare('DELETE FROM lane_counts').run();
      for (const [lane, c] of this.lanes) write.run(lane, c.queued, c.running, c.succeeded, c.failed, c.cancelled);
      this.db.prepare("UPDATE store_flags SET value = 1 WHERE name = 'counts_exact'").run();
    });
  }

  private of(lane: string): LaneCounts {
    let c = this.lanes.get(lane);
    if (!c) this.lanes.set(lane, (c = { ...NO_JOBS }));
    return c;
  }
}
