// The scale timeline: per lane, a sample of workers, busy, waiting and the cap whenever its status
// is announced, merged to one a second and kept for the span the window charts. Points are written
// to the store every few seconds and read back at start, so the chart goes on across restarts; a
// stopping engine ends each lane's line at zero workers, so a restart shows as the gap it was.
import type { LaneStatus, LaneTimeline, TimelinePoint } from '../../../shared/model.js';
import { TIMELINE_SPAN_MS } from '../../../shared/limits.js';
import type { Db } from '../store/db.js';

/** Samples closer together than this are merged: the chart shows an hour, not milliseconds. */
const SAMPLE_EVERY_MS = 1_000;
/** How often finished points go to the store: a restart loses at most this much of the chart. */
const WRITE_EVERY_MS = 10_000;

export class TimelineSamples {
  private readonly samples = new Map<string, TimelinePoint[]>();
  /** Points not yet in the store, by lane. */
  private unsaved: { lane: string; point: TimelinePoint }[] = [];
  private timer: NodeJS.Timeout | null = null;
  private readonly insert;
  private readonly prune;

  constructor(
    private readonly db: Db | null = null,
    now = Date.now(),
  ) {
    this.insert = db?.prepare('INSERT OR REPLACE INTO timeline_points (lane, at, workers, busy, waiting, cap) VALUES (?, ?, ?, ?, ?, ?)');
    this.prune = db?.prepare('DELETE FROM timeline_points WHERE at < ?');
    const rows = db?.prepare<[number], TimelinePoint & { lane: string }>('SELECT lane, at, workers, busy, waiting, cap FROM timeline_points WHERE at >= ? ORDER BY lane, at').all(now - TIMELINE_SPAN_MS) ?? [];
    for (const { lane, ...p } of rows) (this.samples.get(lane) ?? this.samples.set(lane, []).get(lane)!).push(p);
  }

  sample(s: LaneStatus, at: number): void {
    this.add(s.name, { at, workers: s.workers, busy: s.busy, waiting: s.waiting, cap: s.cap });
  }

  forget(lane: string): void {
    this.samples.delete(lane);
    this.unsaved = this.unsaved.filter((u) => u.lane !== lane);
    this.db?.prepare('DELETE FROM timeline_points WHERE lane = ?').run(lane);
  }

  of(lanes: readonly string[], since: number): LaneTimeline[] {
    return lanes.map((lane) => ({ lane, points: (this.samples.get(lane) ?? []).filter((p) => p.at >= since) }));
  }

  /** The engine stops: every lane's line ends at zero workers, and what is unsaved is written. */
  close(at: number): void {
    for (const [lane, points] of this.samples) {
      const last = points.at(-1);
      if (last && last.workers > 0) this.add(lane, { ...last, at: Math.max(at, last.at + SAMPLE_EVERY_MS), workers: 0, busy: 0 });
    }
    this.write(at);
  }

  private add(lane: string, point: TimelinePoint): void {
    const points = this.samples.get(lane) ?? [];
    const last = points.at(-1);
    if (last && point.at - last.at < SAMPLE_EVERY_MS) points[points.length - 1] = { ...point, at: last.at };
    else points.push(point);
    const keepFrom = point.at - TIMELINE_SPAN_MS;
    if (points[0]!.at < keepFrom) points.splice(0, points.findIndex((p) => p.at >= keepFrom));
    this.samples.set(lane, points);
    if (!this.db) return;
    this.unsaved.push({ lane, point: points.at(-1)! });
    this.timer ??= setTimeout(() => this.write(Date.now()), WRITE_EVERY_MS).unref();
  }

  private write(now: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.unsaved;
    this.unsaved = [];
    if (!this.db || batch.length === 0) return;
    try {
      this.db.transaction(() => {
        // A merged point was pushed once per sample: the last copy of each (lane, at) is the one.
        for (const { lane, point: p } of batch) this.insert!.run(lane, p.at, p.workers, p.busy, p.waiting, p.cap);
        this.prune!.run(now - TIMELINE_SPAN_MS);
      })();
    } catch {
      // The chart's history is a nicety: a full disk costs a few points, nothing else.
    }
  }
}
