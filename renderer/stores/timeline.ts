// The scale timeline: per lane, workers and waiting over the last hour, and the ledger of why the
// fleet changed. Loaded when the timeline is first shown, then extended by live events so the
// chart moves without polling.
import { create } from 'zustand';
import type { LaneStatus, ScaleEvent, TimelinePoint } from '../../shared/model.js';
import { TIMELINE_SPAN_MS } from '../../shared/limits.js';

/** Live points closer together than this replace the previous one: a burst is one point. */
const POINT_SPACING_MS = 1_000;
const LEDGER_LIMIT = 500;

export interface TimelineState {
  loaded: boolean;
  loading: boolean;
  error: string | null;
  series: Record<string, TimelinePoint[]>;
  /** Newest first. */
  ledger: ScaleEvent[];
}

export const useTimeline = create<TimelineState>(() => ({
  loaded: false,
  loading: false,
  error: null,
  series: {},
  ledger: [],
}));

export function appendLanePoints(state: TimelineState, lanes: LaneStatus[], now: number): Partial<TimelineState> {
  if (!state.loaded || lanes.length === 0) return {};
  const series = { ...state.series };
  for (const lane of lanes) {
    const point: TimelinePoint = { at: now, workers: lane.workers, busy: lane.busy, waiting: lane.waiting, cap: lane.cap };
    const old = series[lane.name] ?? [];
    const last = old[old.length - 1];
    const keepFrom = firstAfter(old, now - TIMELINE_SPAN_MS);
    const kept = old.slice(keepFrom, last && now - last.at < POINT_SPACING_MS ? -1 : undefined);
    // Keep the step's shape: a point carrying the old values just before the change.
    const prev = kept[kept.length - 1];
    if (prev && now - prev.at >= POINT_SPACING_MS && (prev.workers !== point.workers || prev.waiting !== point.waiting)) {
      kept.push({ ...prev, at: now - 1 });
    }
    kept.push(point);
    series[lane.name] = kept;
  }
  return { series };
}

export function prependLedger(state: TimelineState, events: ScaleEvent[]): Partial<TimelineState> {
  if (events.length === 0) return {};
  const known = new Set(state.ledger.map((e) => e.id));
  const fresh = events.filter((e) => !known.has(e.id)).sort((a, b) => b.id - a.id);
  return { ledger: fresh.concat(state.ledger).slice(0, LEDGER_LIMIT) };
}

function firstAfter(points: TimelinePoint[], at: number): number {
  let i = 0;
  while (i < points.length && points[i]!.at < at) i++;
  return i;
}
