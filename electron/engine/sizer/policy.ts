// The sizer's policy: observed state in, actions with reasons out. No I/O and no clock — the
// time is part of the observation — so every rule is a table-driven test away from proof.
// One pass is four named steps: share the machine, move shell workers from lanes above their
// share to lanes below it, give back what a lane still holds beyond its share, grow lanes below.
import type { ScaleReason } from '../../../shared/model.js';
import { groupedCount, plural } from '../../../shared/format.js';
import { criticalStop } from '../machine/critical.js';
import { shrinkPeriodMs, turnMs } from './pacing.js';
import { fairShares } from './share.js';
import { allowed, wanted, type WorkerRoom } from './wants.js';
import type { Action, Decision, LaneObservation, Observation, Shares } from './policy-types.js';

export type { Action, Decision, LaneObservation, Observation, Shares } from './policy-types.js';

/** Workers that serve the lane: idle, busy, and those on their way to it. */
export const inService = (l: LaneObservation): number => l.idle.length + l.busy.length + l.arriving;
/** Worker processes the lane has alive, those on their way out included (not those arriving: they are counted where they come from). */
const alive = (l: LaneObservation): number => l.idle.length + l.busy.length + l.leaving;
/**
 * The ledger's from/to count one measure throughout: every worker process the lane has alive,
 * draining ones included (as lanes status' WORKERS does) — a drained worker is counted out when
 * it leaves (fleet.ts), so a lowered cap's rows read 3 → 3, 3 → 2, 2 → 1, never jumping between
 * all workers and those staying. An idle worker stopped is counted out by the stop's own row, so
 * not again while it exits: idle rows read 3 → 2, 2 → 1, 1 → 0 however slowly each one goes.
 */
const counted = (l: LaneObservation): number => alive(l) - (l.countedOut ?? 0);
/** The lane's worker room, as wants.ts defines it: what its cap, the ceiling and its limit allow, against its waiting and busy. */
const roomOf = (l: LaneObservation, ceiling: number): WorkerRoom => ({ cap: l.cap, ceiling, waiting: l.waiting, busy: l.busy.length, limit: l.limit });

export function decide(o: Observation): Decision {
  const sorted = [...o.lanes].sort((a, b) => (a.name < b.name ? -1 : 1));
  const critical = stopForMemory(o);
  if (o.paused) return { actions: [...critical, ...sorted.flatMap((l) => pauseAll(l))], wakeAt: null, surplus: [] };
  // A lane paused by itself is paused as all work is, and takes no part in the rest: its workers
  // on their way out still hold their share of the machine, and it wants nothing more.
  const held = sorted.filter((l) => l.pausedUntil !== undefined);
  const lanes = sorted.map((l) => (l.pausedUntil === undefined ? l : heldLane(l)));
  const resumed = unpause(lanes);
  const shares = shareMachine(resumed.lanes, o);
  const moved = rehome(resumed.lanes, shares, o);
  const back = giveBack(moved.lanes, shares, o);
  const pausing = held.flatMap((l) => pauseAll(l, 'this lane paused'));
  const actions = [...critical, ...pausing, ...resumed.actions, ...moved.actions, ...back.actions, ...grow(moved.lanes, shares, o)];
  const pauseEnds = held.map((l) => l.pausedUntil ?? null);
  return { actions, wakeAt: earliest([back.wakeAt, ...pauseEnds, ...sorted.map((l) => dueLater(l, o))]), surplus: back.surplus };
}

/** A paused lane as the rest of the decision sees it: every worker on its way out, nothing to run, nothing movable. */
const heldLane = (l: LaneObservation): LaneObservation => ({
  ...l,
  idle: [],
  busy: [],
  leaving: l.leaving + l.idle.length + l.busy.length,
  drainedForPause: [],
  waiting: 0,
  arriving: 0,
  movable: false,
});

/** Step 0: the one time a busy worker is stopped for the machine's sake (machine/critical.ts says which). */
function stopForMemory(o: Observation): Action[] {
  if (!o.critical) return [];
  const { stop, lastAt } = criticalStop(o.critical.facts, o.critical.lanes, o.critical.lastAt);
  return stop && lastAt !== null ? [{ kind: 'critical', lane: stop.lane, worker: stop.worker, text: stop.text, at: lastAt }] : [];
}

/** Paused (all work, or this lane): nothing runs after the job it is on; the caps are untouched. */
function pauseAll(l: LaneObservation, what = 'all work paused'): Action[] {
  const running = counted(l);
  const actions: Action[] = [];
  if (l.idle.length > 0) actions.push({ kind: 'stop', lane: l.name, workers: [...l.idle], from: running, to: running - l.idle.length, reason: 'pause', detail: what });
  if (l.busy.length > 0) {
    const n = running - l.idle.length;
    actions.push({ kind: 'drain', lane: l.name, workers: [...l.busy], from: n, to: n, reason: 'pause', detail: `${what}: ${plural(l.busy.length, 'job')} finishing first` });
  }
  return actions;
}

/**
 * Resumed: a worker drained only for the pause and still on its job is busy again, not leaving —
 * the pause was the one reason it had to go. The steps after this one see it as busy, so a cap
 * lowered meanwhile drains it again, with that reason.
 */
export function unpause(lanes: readonly LaneObservation[]): { actions: Action[]; lanes: LaneObservation[] } {
  const actions: Action[] = [];
  const after = lanes.map((l) => {
    const kept = l.drainedForPause ?? [];
    if (kept.length === 0) return l;
    const n = counted(l);
    actions.push({ kind: 'keep', lane: l.name, workers: [...kept], from: n, to: n, reason: 'pause', detail: `work resumed: ${plural(kept.length, 'worker')} on ${kept.length === 1 ? 'its' : 'their'} job ${kept.length === 1 ? 'stays' : 'stay'}` });
    return { ...l, busy: [...l.busy, ...kept], leaving: l.leaving - kept.length, drainedForPause: [] };
  });
  return { actions, lanes: after };
}

/** A retry becoming ready, a blocked lane that may start again, a turn ending: moments worth a look. */
const dueLater = (l: LaneObservation, o: Pick<Observation, 'now'>): number | null =>
  earliest([l.nextRetryAt, l.startsBlockedUntil, l.servedSince === null ? null : l.servedSince + turnMs(l)].filter((t): t is number => t !== null && t > o.now));
const earliest = (times: (number | null)[]): number | null => times.reduce<number | null>((m, t) => (t === null ? m : m === null ? t : Math.min(m, t)), null);

/** Step 1: how many workers each lane should have now (share.ts says how the split is fair). */
export function shareMachine(lanes: readonly LaneObservation[], o: Pick<Observation, 'ceiling' | 'now'>): Shares {
  return fairShares(
    lanes.map((l) => ({
      name: l.name,
      want: wanted(roomOf(l, o.ceiling)),
      backlog: l.waiting + l.busy.length,
      waiting: l.waiting,
      running: inService(l),
      servedSince: l.servedSince,
      waitingSince: l.waitingSince,
      turnMs: turnMs(l),
    })),
    o.ceiling,
    o.now,
  );
}

/**
 * Step 2: a shell lane above its share hands workers to shell lanes below theirs, those waiting
 * longest first: an idle worker now, a busy one at the end of its job. Nothing stops or starts.
 */
export function rehome(lanes: readonly LaneObservation[], shares: Shares, o: Pick<Observation, 'now'>): { actions: Action[]; lanes: LaneObservation[] } {
  const copy = lanes.map((l) => ({ ...l, idle: [...l.idle], busy: [...l.busy] }));
  const takers = copy
    .filter((l) => l.movable && shares.get(l.name)! > inService(l) && !(l.startsBlockedUntil !== null && l.startsBlockedUntil > o.now))
    .sort((a, b) => (a.waitingSince ?? o.now) - (b.waitingSince ?? o.now) || (a.name < b.name ? -1 : 1));
  const actions: Action[] = [];
  for (const giver of copy) {
    if (!giver.movable) continue;
    for (;;) {
      const taker = takers.find((t) => shares.get(t.name)! > inService(t));
      if (!taker || inService(giver) <= shares.get(giver.name)!) break;
      const was = { giver: counted(giver), taker: counted(taker) };
      const idle = giver.idle.shift();
      // A busy one goes after its job: the newest, as a trimmed lane's would.
      const worker = idle ?? giver.busy.pop();
      if (worker === undefined) break;
      if (idle === undefined) {
        giver.leaving++;
        taker.arriving++;
      } else taker.idle.push(idle);
      const after = giver.waiting > 0 ? 'its turn is over' : 'nothing more waiting here';
      const detail = idle === undefined ? `${after}: after this job the worker goes on to "${taker.name}"` : `nothing waiting here: the worker goes on to "${taker.name}"`;
      actions.push({ kind: 'move', lane: giver.name, workers: [worker], from: was.giver, to: was.giver - 1, reason: 'turn', detail, target: { lane: taker.name, from: was.taker, to: was.taker + 1 } });
    }
  }
  return { actions, lanes: copy };
}

/**
 * Step 3: lanes above their share give workers back. Above the cap or the machine's share for it:
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
    if (running > allowed(roomOf(l, o.ceiling)) || share < wanted(roomOf(l, o.ceiling))) {
      actions.push(...trimToShare(l, share, o.ceiling, o.ceilingText));
      continue;
    }
    // Demand fell: only idle workers are surplus here (wanted ≥ busy whenever cap ≥ busy).
    const extra = Math.min(running - share, l.idle.length);
    if (extra <= 0) continue;
    surplus.push(l.name);
    if (starved > 0) {
      const n = Math.min(extra, starved);
      starved -= n;
      actions.push({ kind: 'stop', lane: l.name, workers: l.idle.slice(0, n), from: counted(l), to: counted(l) - n, reason: 'budget', detail: 'another lane needs the worker' });
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
  const all = lanes.reduce((n, l) => n + alive(l), 0);
  const shortfall = lanes.reduce((n, l) => n + Math.max(0, shares.get(l.name)! - inService(l)), 0);
  return Math.max(0, shortfall - Math.max(0, ceiling - all));
}

/**
 * Over the cap, what the machine allows it, or its share of the machine: stop idle workers now,
 * drain busy ones (newest first). The reason names what binds: the cap when it is the lowest.
 */
export function trimToShare(l: LaneObservation, share: number, ceiling: number, ceilingText?: string): Action[] {
  const running = inService(l);
  const over = running > allowed({ cap: l.cap, ceiling, limit: l.limit });
  const reason: ScaleReason = !over ? 'budget' : l.cap <= Math.min(ceiling, l.limit) ? 'cap' : 'machine';
  const machineWhy = l.limit < ceiling ? (l.limitText ?? `the machine allows ${l.limit}`) : (ceilingText ?? `the machine allows ${ceiling}`);
  const detail =
    reason === 'budget' ? `sharing ${ceiling} workers with other lanes` : reason === 'machine' ? machineWhy : l.capWas !== null && l.cap < l.capWas ? `cap lowered to ${l.cap}` : `cap is ${l.cap}`;
  const excess = running - share;
  const stop = l.idle.slice(0, excess);
  const drain = l.busy.slice(l.busy.length - (excess - stop.length));
  const actions: Action[] = [];
  const shown = counted(l);
  if (stop.length) actions.push({ kind: 'stop', lane: l.name, workers: stop, from: shown, to: shown - stop.length, reason, detail });
  if (drain.length) {
    // Still alive until each has finished its job: counted out when it actually leaves.
    const n = shown - stop.length;
    actions.push({ kind: 'drain', lane: l.name, workers: drain, from: n, to: n, reason, detail: `${detail}: ${plural(drain.length, 'worker')} finishing ${drain.length === 1 ? 'its job' : 'their jobs'} first` });
  }
  return actions;
}

/**
 * A worker must be surplus for a whole period before it goes, and the next one a period after
 * that: a lull between two bursts should not cost a worker restart.
 */
export function shrinkOnePerPeriod(l: LaneObservation, extra: number, o: Pick<Observation, 'now' | 'tickMs'>): { action: Action | null; wakeAt: number | null } {
  const period = shrinkPeriodMs(l.class, o.tickMs);
  const dueAt = Math.max((l.surplusSince ?? o.now) + period, (l.lastShrinkAt ?? -Infinity) + period);
  if (dueAt > o.now) return { action: null, wakeAt: dueAt };
  const action: Action = { kind: 'stop', lane: l.name, workers: l.idle.slice(0, 1), from: counted(l), to: counted(l) - 1, reason: 'idle', detail: 'nothing waiting' };
  return { action, wakeAt: extra > 1 ? o.now + period : null };
}

/**
 * Step 4: growth is immediate, within what the machine has free now. Lanes without a worker go
 * first; a lane whose worker command keeps dying as it starts waits out its backoff.
 */
export function grow(lanes: readonly LaneObservation[], shares: Shares, o: Pick<Observation, 'now' | 'ceiling'>): Action[] {
  let free = Math.max(0, o.ceiling - lanes.reduce((n, l) => n + alive(l), 0));
  const growing = lanes
    .filter((l) => shares.get(l.name)! > inService(l) && !(l.startsBlockedUntil !== null && l.startsBlockedUntil > o.now))
    .sort((a, b) => inService(a) - inService(b) || b.waiting - a.waiting || (a.name < b.name ? -1 : 1));
  const actions: Action[] = [];
  for (const l of growing) {
    const running = inService(l);
    const count = Math.min(shares.get(l.name)! - running, free);
    if (count <= 0) continue;
    free -= count;
    const raised = l.capWas !== null && l.cap > l.capWas;
    const shown = counted(l);
    const waiting = groupedCount(l.waiting);
    actions.push({ kind: 'start', lane: l.name, count, from: shown, to: shown + count, reason: raised ? 'cap' : 'demand', detail: raised ? `cap raised to ${l.cap}: ${waiting} waiting` : `${waiting} waiting` });
  }
  return actions;
}
