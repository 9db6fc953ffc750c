// The sizer's policy: observed state in, actions with reasons out. No I/O and no clock — the
// time is part of the observation — so every rule is a table-driven test away from proof.
import type { LaneClass, ScaleReason } from '../../../shared/model.js';
import { shrinkPeriodMs } from './pacing.js';
import { fairShares } from './share.js';

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
  waiting: number;
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

/** The most workers a lane could use right now if it had the machine to itself. */
export const desired = (l: LaneObservation, ceiling: number): number =>
  Math.max(0, Math.min(l.cap, ceiling, l.waiting + l.busy.length));

const inService = (l: LaneObservation) => l.idle.length + l.busy.length;

export function decide(o: Observation): Decision {
  const lanes = [...o.lanes].sort((a, b) => (a.name < b.name ? -1 : 1));
  const share = fairShares(
    lanes.map((l) => ({ name: l.name, want: desired(l, o.ceiling), backlog: l.waiting + l.busy.length, running: inService(l) })),
    o.ceiling,
  );
  const alive = lanes.reduce((n, l) => n + inService(l) + l.leaving, 0);
  const shortfall = lanes.reduce((n, l) => n + Math.max(0, share.get(l.name)! - inService(l)), 0);
  // Idle workers that another lane is waiting for are released now, not at the shrink pace.
  let starved = Math.max(0, shortfall - Math.max(0, o.ceiling - alive));

  const actions: Action[] = [];
  const surplusLanes: string[] = [];
  let wakeAt: number | null = null;
  for (const l of lanes) {
    const running = inService(l);
    const target = share.get(l.name)!;
    if (running <= target) continue;
    const limit = Math.min(l.cap, o.ceiling);
    const want = desired(l, o.ceiling);
    if (running > limit || target < want) {
      // Over the cap, or over its share of the machine: give back at once, idle first.
      const reason: ScaleReason = running > limit ? 'cap' : 'budget';
      const excess = running - target;
      const stop = l.idle.slice(0, excess);
      const drain = l.busy.slice(l.busy.length - (excess - stop.length));
      const detail = reason === 'cap' ? `cap is ${l.cap}` : `sharing ${o.ceiling} workers with other lanes`;
      if (stop.length) actions.push({ kind: 'stop', lane: l.name, workers: stop, from: running, to: running - stop.length, reason, detail });
      if (drain.length) {
        const from = running - stop.length;
        actions.push({ kind: 'drain', lane: l.name, workers: drain, from, to: target, reason, detail: `${detail}; finishing current job` });
      }
      continue;
    }
    // Demand fell: only idle workers are surplus here (want ≥ busy whenever cap ≥ busy).
    const surplus = Math.min(running - target, l.idle.length);
    if (surplus <= 0) continue;
    surplusLanes.push(l.name);
    if (starved > 0) {
      const n = Math.min(surplus, starved);
      starved -= n;
      actions.push({ kind: 'stop', lane: l.name, workers: l.idle.slice(0, n), from: running, to: running - n, reason: 'budget', detail: 'another lane needs the worker' });
      continue;
    }
    // A worker must be surplus for a whole period before it goes, and the next one a period
    // after that: a lull between two bursts should not cost a worker restart.
    const period = shrinkPeriodMs(l.class, o.tickMs);
    const dueAt = Math.max((l.surplusSince ?? o.now) + period, (l.lastShrinkAt ?? -Infinity) + period);
    if (dueAt <= o.now) {
      actions.push({ kind: 'stop', lane: l.name, workers: l.idle.slice(0, 1), from: running, to: running - 1, reason: 'idle', detail: 'nothing waiting' });
      if (surplus > 1) wakeAt = min(wakeAt, o.now + period);
    } else {
      wakeAt = min(wakeAt, dueAt);
    }
  }

  // Growth is immediate, within what the machine has free now. Lanes without a worker go first.
  let free = Math.max(0, o.ceiling - alive);
  const growing = lanes
    .filter((l) => share.get(l.name)! > inService(l))
    .sort((a, b) => inService(a) - inService(b) || b.waiting - a.waiting || (a.name < b.name ? -1 : 1));
  for (const l of growing) {
    const running = inService(l);
    const count = Math.min(share.get(l.name)! - running, free);
    if (count <= 0) continue;
    free -= count;
    actions.push({ kind: 'start', lane: l.name, count, from: running, to: running + count, reason: 'demand', detail: `${l.waiting} waiting` });
  }
  return { actions, wakeAt, surplus: surplusLanes };
}

const min = (a: number | null, b: number) => (a === null ? b : Math.min(a, b));
