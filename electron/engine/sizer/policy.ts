// The sizer's policy: observed state in, actions with reasons out. No I/O and no clock — the
// time is part of the observation — so every rule is a table-driven test away from proof.
// One pass is three named steps: share the machine, give back what a lane holds beyond its
// share, grow lanes below theirs.
import type { LaneClass, ScaleReason } from '../../../shared/model.js';
import { shrinkPeriodMs } from './pacing.js';
import { fairShares } from './share.js';
import { allowed, wanted } from './wants.js';

export interface LaneObservation {
  name: string;
  class: LaneClass;
  cap: number;
  /** Workers without a job (including ones still starting), oldest first. */
  idle: readonly string[];
  /** Workers running a job. */
  busy: readonly string[];
  /** Workers on their way out: finishing a last job, or exiting. They still use the machine. */
  leaving: number;
  /** Queued and ready to run (retries still waiting out their backoff are not counted). */
  waiting: number;
  /** The soonest moment a retry waiting out its backoff becomes ready; null when none waits. */
  nextRetryAt: number | null;
  /** No new worker before then: its worker command keeps dying as it starts; null when it may start. */
  startsBlockedUntil: number | null;
  /** When this lane last gave back a worker because demand fell; null if never. */
  lastShrinkAt: number | null;
  /** Since when it has had more idle workers than it needs (reported back by `decide`); null if not. */
  surplusSince: number | null;
}

export interface Observation {
  now: number;
  tickMs: number;
  ceiling: number;
  lanes: readonly LaneObservation[];
}

interface Change {
  lane: string;
  /** Workers in service (idle + busy) before and after. */
  from: number;
  to: number;
  reason: ScaleReason;
  detail: string;
}

export type Action =
  | (Change & { kind: 'start'; count: number })
  /** Idle workers: stop now. */
  | (Change & { kind: 'stop'; workers: string[] })
  /** Busy workers: finish the current job, then exit. Never killed to shrink. */
  | (Change & { kind: 'drain'; workers: string[] });

export interface Decision {
  actions: Action[];
  /** When a paced shrink becomes due, so the loop can look again then rather than a tick later. */
  wakeAt: number | null;
  /** Lanes with idle workers beyond what they need; the loop remembers since when. */
  surplus: string[];
}

export type Shares = ReadonlyMap<string, number>;

export const inService = (l: LaneObservation): number => l.idle.length + l.busy.length;
const demandOf = (l: LaneObservation, ceiling: number) => ({ cap: l.cap, ceiling, waiting: l.waiting, busy: l.busy.length });

export function decide(o: Observation): Decision {
  const lanes = [...o.lanes].sort((a, b) => (a.name < b.name ? -1 : 1));
  const shares = shareMachine(lanes, o.ceiling);
  const back = giveBack(lanes, shares, o);
  return { actions: [...back.actions, ...grow(lanes, shares, o)], wakeAt: earliest([back.wakeAt, ...lanes.map((l) => dueLater(l, o.now))]), surplus: back.surplus };
}

/** A retry becoming ready, or a blocked lane that may start again: moments worth a look. */
const dueLater = (l: LaneObservation, now: number): number | null => earliest([l.nextRetryAt, l.startsBlockedUntil].filter((t): t is number => t !== null && t > now));
const earliest = (times: (number | null)[]): number | null => times.reduce<number | null>((m, t) => (t === null ? m : m === null ? t : Math.min(m, t)), null);

/** Step 1: how many workers each lane should have now (share.ts says how the split is fair). */
export function shareMachine(lanes: readonly LaneObservation[], ceiling: number): Shares {
  return fairShares(
    lanes.map((l) => ({ name: l.name, want: wanted(demandOf(l, ceiling)), backlog: l.waiting + l.busy.length, running: inService(l) })),
    ceiling,
  );
}

/**
 * Step 2: lanes above their share give workers back. Above the cap or the machine's share for it:
 * at once, idle first, busy ones drained. Merely more than the work needs: one idle worker per
 * period (pacing.ts), or at once when another lane is waiting for the room.
 */
export function giveBack(lanes: readonly LaneObservation[], shares: Shares, o: Observation): Omit<Decision, 'actions'> & { actions: Action[] } {
  const actions: Action[] = [];
  const surplus: string[] = [];
  let wakeAt: number | null = null;
  let starved = starvedFor(lanes, shares, o.ceiling);
  for (const l of lanes) {
    const running = inService(l);
    const share = shares.get(l.name)!;
    if (running <= share) continue;
    if (running > allowed({ cap: l.cap, ceiling: o.ceiling }) || share < wanted(demandOf(l, o.ceiling))) {
      actions.push(...trimToShare(l, share, o.ceiling));
      continue;
    }
    // Demand fell: only idle workers are surplus here (wanted ≥ busy whenever cap ≥ busy).
    const extra = Math.min(running - share, l.idle.length);
    if (extra <= 0) continue;
    surplus.push(l.name);
    if (starved > 0) {
      const n = Math.min(extra, starved);
      starved -= n;
      actions.push({ kind: 'stop', lane: l.name, workers: l.idle.slice(0, n), from: running, to: running - n, reason: 'budget', detail: 'another lane needs the worker' });
      continue;
    }
    const paced = shrinkOnePerPeriod(l, extra, o);
    if (paced.action) actions.push(paced.action);
    wakeAt = earliest([wakeAt, paced.wakeAt]);
  }
  return { actions, wakeAt, surplus };
}

/** Workers other lanes are short of beyond what the machine has free: idle surplus is released for them. */
function starvedFor(lanes: readonly LaneObservation[], shares: Shares, ceiling: number): number {
  const alive = lanes.reduce((n, l) => n + inService(l) + l.leaving, 0);
  const shortfall = lanes.reduce((n, l) => n + Math.max(0, shares.get(l.name)! - inService(l)), 0);
  return Math.max(0, shortfall - Math.max(0, ceiling - alive));
}

/** Over the cap or its share of the machine: stop idle workers now, drain busy ones (newest first). */
export function trimToShare(l: LaneObservation, share: number, ceiling: number): Action[] {
  const running = inService(l);
  const reason: ScaleReason = running > allowed({ cap: l.cap, ceiling }) ? 'cap' : 'budget';
  const detail = reason === 'cap' ? `cap is ${l.cap}` : `sharing ${ceiling} workers with other lanes`;
  const excess = running - share;
  const stop = l.idle.slice(0, excess);
  const drain = l.busy.slice(l.busy.length - (excess - stop.length));
  const actions: Action[] = [];
  if (stop.length) actions.push({ kind: 'stop', lane: l.name, workers: stop, from: running, to: running - stop.length, reason, detail });
  if (drain.length) {
    actions.push({ kind: 'drain', lane: l.name, workers: drain, from: running - stop.length, to: share, reason, detail: `${detail}; finishing current job` });
  }
  return actions;
}

/**
 * A worker must be surplus for a whole period before it goes, and the next one a period after
 * that: a lull between two bursts should not cost a worker restart.
 */
export function shrinkOnePerPeriod(l: LaneObservation, extra: number, o: Pick<Observation, 'now' | 'tickMs'>): { action: Action | null; wakeAt: number | null } {
  const running = inService(l);
  const period = shrinkPeriodMs(l.class, o.tickMs);
  const dueAt = Math.max((l.surplusSince ?? o.now) + period, (l.lastShrinkAt ?? -Infinity) + period);
  if (dueAt > o.now) return { action: null, wakeAt: dueAt };
  const action: Action = { kind: 'stop', lane: l.name, workers: l.idle.slice(0, 1), from: running, to: running - 1, reason: 'idle', detail: 'nothing waiting' };
  return { action, wakeAt: extra > 1 ? o.now + period : null };
}

/**
 * Step 3: growth is immediate, within what the machine has free now. Lanes without a worker go
 * first; a lane whose worker command keeps dying as it starts waits out its backoff.
 */
export function grow(lanes: readonly LaneObservation[], shares: Shares, o: Pick<Observation, 'now' | 'ceiling'>): Action[] {
  let free = Math.max(0, o.ceiling - lanes.reduce((n, l) => n + inService(l) + l.leaving, 0));
  const growing = lanes
    .filter((l) => shares.get(l.name)! > inService(l) && !(l.startsBlockedUntil !== null && l.startsBlockedUntil > o.now))
    .sort((a, b) => inService(a) - inService(b) || b.waiting - a.waiting || (a.name < b.name ? -1 : 1));
  const actions: Action[] = [];
  for (const l of growing) {
    const running = inService(l);
    const count = Math.min(shares.get(l.name)! - running, free);
    if (count <= 0) continue;
    free -= count;
    actions.push({ kind: 'start', lane: l.name, count, from: running, to: running + count, reason: 'demand', detail: `${l.waiting} waiting` });
  }
  return actions;
}
