// The scale timeline: per lane, a sample of workers, busy and waiting whenever its status is
// announced, merged to one a second and kept for the span the window charts.
import type { LaneStatus, LaneTimeline, TimelinePoint } from '../../../shared/model.js';
import { TIMELINE_SPAN_MS } from '../../../shared/limits.js';

/** Samples closer together than this are merged: the chart shows an hour, not milliseconds. */
const SAMPLE_EVERY_MS = 1_000;

export class TimelineSamples {
  private readonly samples = new Map<string, TimelinePoint[]>();

  sample(s: LaneStatus, at: number): void {
    const points = this.samples.get(s.name) ?? [];
    const point = { at, workers: s.workers, busy: s.busy, waiting: s.waiting };
    const last = points.at(-1);
    if (last && at - last.at < SAMPLE_EVERY_MS) points[points.length - 1] = { ...point, at: last.at };
    else points.push(point);
    const keepFrom = at - TIMELINE_SPAN_MS;
    if (points[0]!.at < keepFrom) points.splice(0, points.findIndex((p) => p.at >= keepFrom));
    this.samples.set(s.name, points);
  }

  forget(lane: string): void {
    this.samples.delete(lane);
  }

  of(lanes: readonly string[], since: number): LaneTimeline[] {
    return lanes.map((lane) => ({ lane, points: (this.samples.get(lane) ?? []).filter((p) => p.at >= since) }));
  }
}
