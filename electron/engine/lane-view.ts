// What a person sees of each lane: the sizer's observation plus counts, recent figures, the
// mood and the nudge. Also decides which of that changed enough to announce, and keeps the
// last hour of samples for the timeline.
import type { LaneStatus, LaneTimeline, Nudge, TimelinePoint } from '../../shared/model.js';
import type { Observation } from './sizer/policy.js';
import { nudgeFor } from './sizer/nudge.js';
import { moodOf } from './sizer/mood.js';
import type { LaneCounts, LaneRow } from './store/lanes.js';
import type { RecentFigures } from './store/job-queries.js';

export interface ViewSources {
  lanes(): LaneRow[];
  counts(): Map<string, LaneCounts>;
  /** Cached for a couple of seconds: figures over minutes need not be recomputed per event. */
  recent(lane: string): RecentFigures;
  oldestQueuedAt(lane: string): number | undefined;
  /** Live worker counts per lane. */
  fleet(lane: string): { idle: number; busy: number; leaving: number };
}

const TIMELINE_KEEP_MS = 2 * 3_600_000;
/** Samples closer together than this are merged: the chart shows an hour, not milliseconds. */
const SAMPLE_EVERY_MS = 1_000;

export class LaneView {
  private readonly nudges = new Map<string, Nudge | null>();
  private readonly samples = new Map<string, TimelinePoint[]>();

  constructor(private readonly src: ViewSources) {}

  build(name: string, o: Pick<Observation, 'now' | 'tickMs' | 'ceiling'>, machineInUse: number): LaneStatus | undefined {
    const lane = this.src.lanes().find((l) => l.name === name);
    return lane && this.status(lane, this.src.counts(), o, machineInUse);
  }

  all(o: Pick<Observation, 'now' | 'tickMs' | 'ceiling'>, machineInUse: number): LaneStatus[] {
    const counts = this.src.counts();
    return this.src.lanes().map((l) => this.status(l, counts, o, machineInUse));
  }

  private status(lane: LaneRow, counts: Map<string, LaneCounts>, o: Pick<Observation, 'now' | 'tickMs' | 'ceiling'>, machineInUse: number): LaneStatus {
    const c = counts.get(lane.name) ?? { queued: 0, running: 0, succeeded: 0, failed: 0, cancelled: 0 };
    const f = this.src.fleet(lane.name);
    const running = f.idle + f.busy;
    // Only a lane that could nudge pays for the oldest-job lookup.
    const candidate = c.queued > 0 && f.busy >= lane.cap && lane.cap < o.ceiling;
    const nudge = nudgeFor({
      cap: lane.cap,
      ceiling: o.ceiling,
      waiting: c.queued,
      busy: f.busy,
      waitingSince: candidate ? (this.src.oldestQueuedAt(lane.name) ?? null) : null,
      now: o.now,
      tickMs: o.tickMs,
      machineInUse,
    });
    const recent = this.src.recent(lane.name);
    return {
      name: lane.name,
      class: lane.class,
      cap: lane.cap,
      workerCommand: lane.workerCommand,
      workerCwd: lane.workerCwd,
      workers: running + f.leaving,
      busy: f.busy,
      idle: f.idle,
      draining: f.leaving,
      waiting: c.queued,
      running: c.running,
      succeeded: c.succeeded,
      failed: c.failed,
      cancelled: c.cancelled,
      throughputPerMin: recent.throughputPerMin,
      medianWaitMs: recent.medianWaitMs,
      mood: moodOf({ cap: lane.cap, ceiling: o.ceiling, waiting: c.queued, busy: f.busy, running }),
      nudge,
    };
  }

  /**
   * When a nudge that is not showing yet will become due (work waiting, not yet for a tick),
   * so the loop can look again then instead of at the next tick.
   */
  nudgeDueAt(statuses: LaneStatus[], o: Pick<Observation, 'now' | 'tickMs' | 'ceiling'>): number | null {
    let at: number | null = null;
    for (const s of statuses) {
      if (s.nudge || s.waiting === 0 || s.busy < s.cap || s.cap >= o.ceiling) continue;
      const since = this.src.oldestQueuedAt(s.name);
      if (since !== undefined && since + o.tickMs > o.now) at = Math.min(at ?? Infinity, since + o.tickMs);
    }
    return at;
  }

  /** True when the lane's nudge differs from the last one announced. */
  nudgeChanged(s: LaneStatus): boolean {
    const before = this.nudges.get(s.name) ?? null;
    const same = before === s.nudge || (before !== null && s.nudge !== null && before.text === s.nudge.text);
    this.nudges.set(s.name, s.nudge);
    return !same;
  }

  forget(lane: string): void {
    this.nudges.delete(lane);
    this.samples.delete(lane);
  }

  sample(s: LaneStatus, at: number): void {
    const points = this.samples.get(s.name) ?? [];
    const point = { at, workers: s.workers, busy: s.busy, waiting: s.waiting };
    const last = points.at(-1);
    if (last && at - last.at < SAMPLE_EVERY_MS) points[points.length - 1] = { ...point, at: last.at };
    else points.push(point);
    if (points.length > 0 && points[0]!.at < at - TIMELINE_KEEP_MS) points.splice(0, points.findIndex((p) => p.at >= at - TIMELINE_KEEP_MS));
    this.samples.set(s.name, points);
  }

  timeline(lanes: string[], since: number): LaneTimeline[] {
    return lanes.map((lane) => ({ lane, points: (this.samples.get(lane) ?? []).filter((p) => p.at >= since) }));
  }
}
