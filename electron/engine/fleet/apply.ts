// The sizer loop's two ends that touch the world: what it observes (lanes, backlogs, the pool's
// workers, and the little it remembers between passes) and how a decision is carried out.
import { backoffMs } from '../backoff.js';
import type { Decision, LaneObservation, Observation } from '../sizer/policy.js';
import type { LaneCounts, LaneRow } from '../store/lanes.js';
import { roleOf, type Pool } from '../workers/pool.js';
import type { ScaleLedger } from './ledger.js';

/**
 * What the policy is told about its own past: when each lane last shrank, since when it had
 * surplus, and whether its worker command keeps dying as it starts (and until when it waits).
 */
export class SizerMemory {
  readonly lastShrinkAt = new Map<string, number>();
  readonly surplusSince = new Map<string, number>();
  readonly startFailures = new Map<string, { streak: number; until: number }>();
  /** Since when each lane has held a worker without a break, and since when each has waited for one. */
  readonly heldSince = new Map<string, number>();
  readonly waitingSince = new Map<string, number>();
  /** Each lane's cap at the last pass: a change since is a person's, and the ledger says so. */
  readonly caps = new Map<string, number>();

  /** Keeps `key` since the first moment `now` it held, and forgets it when it no longer does. */
  static since(map: Map<string, number>, key: string, holds: boolean, now: number): number | null {
    if (!holds) {
      map.delete(key);
      return null;
    }
    if (!map.has(key)) map.set(key, now);
    return map.get(key)!;
  }

  /**
   * A worker of the lane died before it was ready (its command cannot start, it crashed as it
   * started): the next one waits, longer each time in a row, so a lane that cannot work does not spin.
   */
  workerFailed(lane: string, now: number): { streak: number; until: number } {
    const streak = (this.startFailures.get(lane)?.streak ?? 0) + 1;
    const entry = { streak, until: now + backoffMs(streak) };
    this.startFailures.set(lane, entry);
    return entry;
  }

  /** A job of the lane succeeded: its workers work after all. */
  succeeded(lane: string): void {
    this.startFailures.delete(lane);
  }

  forget(lane: string): void {
    this.lastShrinkAt.delete(lane);
    this.surplusSince.delete(lane);
    this.startFailures.delete(lane);
    this.heldSince.delete(lane);
    this.waitingSince.delete(lane);
  }
}

export interface ObserveInputs {
  now: number;
  tickMs: number;
  ceiling: number;
  lanes: readonly LaneRow[];
  counts: ReadonlyMap<string, LaneCounts>;
  /** Queued retries still waiting out their backoff, per lane, and the soonest ready moment. */
  delayed: ReadonlyMap<string, { n: number; next: number }>;
}

/**
 * The lanes with work or workers, as the policy sees them. A lane with neither (nothing waiting,
 * no retry to come, no worker of its own or on its way to it) has nothing to decide: it sits the
 * pass out, so a pass costs what the busy lanes cost, however many lanes there are.
 */
export function observe(inputs: ObserveInputs, pool: Pool, memory: SizerMemory): Observation {
  const withWorkers = new Set<string>();
  for (const w of pool.workers.values()) {
    withWorkers.add(w.lane);
    if (w.moveTo !== undefined) withWorkers.add(w.moveTo);
  }
  const byLane = new Map<string, LaneObservation & { idle: string[]; busy: string[] }>();
  for (const l of inputs.lanes) if (ready(l.name, inputs) > 0 || inputs.delayed.has(l.name) || withWorkers.has(l.name)) byLane.set(l.name, observation(l, inputs, memory));
  for (const w of pool.workers.values()) {
    const l = byLane.get(w.lane);
    if (!l) continue;
    // On its way to another lane: it leaves this one and arrives there.
    const moving = w.moveTo === undefined ? undefined : byLane.get(w.moveTo);
    const role = roleOf(w.state);
    // Jobs in its hand are queued in the store, but taken: no other worker could run them.
    l.waiting -= w.held.length;
    if (role === 'leaving' || moving) l.leaving++;
    else l[role].push(w.id);
    if (moving) moving.arriving++;
  }
  for (const l of inputs.lanes) {
    const o = byLane.get(l.name);
    const held = o !== undefined && o.idle.length + o.busy.length + o.arriving > 0;
    const since = SizerMemory.since(memory.heldSince, l.name, held, inputs.now);
    const waitingSince = SizerMemory.since(memory.waitingSince, l.name, o !== undefined && !held && o.waiting > 0 && l.cap > 0, inputs.now);
    if (o) [o.heldSince, o.waitingSince] = [since, waitingSince];
  }
  return { now: inputs.now, tickMs: inputs.tickMs, ceiling: inputs.ceiling, lanes: [...byLane.values()] };
}

/** Queued and ready, jobs in hands included (observe takes those off). */
const ready = (lane: string, inputs: ObserveInputs) => (inputs.counts.get(lane)?.queued ?? 0) - (inputs.delayed.get(lane)?.n ?? 0);

function observation(l: LaneRow, inputs: ObserveInputs, memory: SizerMemory): LaneObservation & { idle: string[]; busy: string[] } {
  return {
    name: l.name,
    class: l.class,
    cap: l.cap,
    idle: [],
    busy: [],
    leaving: 0,
    arriving: 0,
    waiting: ready(l.name, inputs),
    nextRetryAt: inputs.delayed.get(l.name)?.next ?? null,
    startsBlockedUntil: memory.startFailures.get(l.name)?.until ?? null,
    lastShrinkAt: memory.lastShrinkAt.get(l.name) ?? null,
    surplusSince: memory.surplusSince.get(l.name) ?? null,
    // A shared lane's worker stays with it: its jobs are claimed and finished on its queue.
    movable: l.workerCommand === null && l.queue === null,
    heldSince: null,
    waitingSince: null,
    capWas: memory.caps.has(l.name) && memory.caps.get(l.name) !== l.cap ? memory.caps.get(l.name)! : null,
    // The machine's per-lane limits are laid over by the fleet (machine/limits.ts).
    limit: Infinity,
    limitText: null,
  };
}

/** The ledger row written when a drained worker actually goes, from the reason it was drained for. */
const leftAfter = (detail: string) => `${detail.replace(/: [^:]*finishing[^:]*$/, '')}: finished its job and left`;

export function apply({ actions, surplus }: Decision, now: number, pool: Pool, memory: SizerMemory, ledger: ScaleLedger, lanes: readonly LaneRow[] = []): void {
  for (const l of lanes) memory.caps.set(l.name, l.cap);
  for (const lane of memory.surplusSince.keys()) if (!surplus.includes(lane)) memory.surplusSince.delete(lane);
  for (const lane of surplus) if (!memory.surplusSince.has(lane)) memory.surplusSince.set(lane, now);
  for (const a of actions) {
    if (a.kind === 'start') for (let i = 0; i < a.count; i++) pool.start(a.lane);
    else if (a.kind === 'stop') pool.stop(a.workers);
    else if (a.kind === 'drain') pool.drain(a.workers, { reason: a.reason, detail: leftAfter(a.detail) });
    else for (const id of a.workers) pool.move(id, a.target.lane);
    if (a.kind === 'stop' && a.reason === 'idle') memory.lastShrinkAt.set(a.lane, now);
    ledger.record(a.lane, a.from, a.to, a.reason, a.detail);
    if (a.kind === 'move') ledger.record(a.target.lane, a.target.from, a.target.to, 'turn', `a worker of "${a.lane}" comes over (no new process)`);
  }
}
