import type { LaneObservation, Observation } from '../../electron/engine/sizer/policy.js';

export const TICK = 60_000;
export const NOW = 10_000_000;

/** A lane with `idle` and `busy` workers named after it: worker lane → w-i0, w-b0 … */
export function lane(
  name: string,
  o: {
    cap?: number;
    idle?: number;
    busy?: number;
    leaving?: number;
    countedOut?: number;
    waiting?: number;
    class?: 'cpu' | 'ml';
    lastShrinkAt?: number | null;
    surplusSince?: number | null;
    nextRetryAt?: number | null;
    startsBlockedUntil?: number | null;
    movable?: boolean;
    servedSince?: number | null;
    waitingSince?: number | null;
    arriving?: number;
    capWas?: number | null;
    limit?: number;
    limitText?: string | null;
  } = {},
): LaneObservation {
  return {
    name,
    class: o.class ?? 'cpu',
    cap: o.cap ?? 1,
    idle: Array.from({ length: o.idle ?? 0 }, (_, i) => `${name}-i${i}`),
    busy: Array.from({ length: o.busy ?? 0 }, (_, i) => `${name}-b${i}`),
    leaving: o.leaving ?? 0,
    ...(o.countedOut === undefined ? {} : { countedOut: o.countedOut }),
    waiting: o.waiting ?? 0,
    nextRetryAt: o.nextRetryAt ?? null,
    startsBlockedUntil: o.startsBlockedUntil ?? null,
    lastShrinkAt: o.lastShrinkAt ?? null,
    surplusSince: o.surplusSince ?? null,
    // A persistent lane unless said otherwise: the rules that do not move workers.
    movable: o.movable ?? false,
    servedSince: o.servedSince ?? null,
    waitingSince: o.waitingSince ?? null,
    arriving: o.arriving ?? 0,
    capWas: o.capWas ?? null,
    limit: o.limit ?? Infinity,
    limitText: o.limitText ?? null,
  };
}

export const observe = (ceiling: number, lanes: LaneObservation[], now = NOW): Observation => ({ now, tickMs: TICK, ceiling, lanes });
