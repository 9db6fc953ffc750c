// What a person sees of each lane: the sizer's observation plus counts, recent figures, the
// mood and the nudge. Also decides which of that changed enough to announce, and keeps the
// last hour of samples for the timeline.
import type { LaneStatus, LaneTimeline, Nudge, TimelinePoint } from '../../shared/model.js';
import type { Observation } from './sizer/policy.js';
import { heldByCap, nudgeDueAt, nudgeFor } from './sizer/nudge.js';
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
    return lane && this.status(lane, this.src.counts(), o, machineInUse).status;
  }

  /** Every lane's status, and the earliest moment a nudge not yet showing becomes due. */
  all(o: Pick<Observation, 'now' | 'tickMs' | 'ceiling'>, machineInUse: number): { lanes: LaneStatus[]; nudgeDueAt: number | null } {
    const counts = this.src.counts();
    let nudgeDueAt: number | null = null;
    const lanes = this.src.lanes().map((l) => {
      const { status, dueAt } = this.status(l, counts, o, machineInUse);
      if (dueAt !== null) nudgeDueAt = Math.min(nudgeDueAt ?? Infinity, dueAt);
      return status;
    });
    return { lanes, nudgeDueAt };
  }

  private status(
    lane: LaneRow,
    counts: Map<string, LaneCounts>,
    o: Pick<Observation, 'now' | 'tickMs' | 'ceiling'>,
    machineInUse: number,
  ): { status: LaneStatus; dueAt: number | null } {
    const c = counts.get(lane.name) ?? { queued: 0, running: 0, succeeded: 0, failed: 0, cancelled: 0 };
    const f = this.src.fleet(lane.name);
    const running = f.idle + f.busy;
    const held = { cap: lane.cap, ceiling: o.ceiling, waiting: c.queued, busy: f.busy, machineInUse };
    // Only a lane the nudge could speak for pays for the oldest-job lookup.
    const waitingSince = heldByCap(held) ? (this.src.oldestQueuedAt(lane.name) ?? null) : null;
    const facts = { ...held, waitingSince, now: o.now, tickMs: o.tickMs };
    const nudge = nudgeFor(facts);
    const recent = this.src.recent(lane.name);
    const status: LaneStatus = {
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
    return { status, dueAt: nudgeDueAt(facts) };
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
