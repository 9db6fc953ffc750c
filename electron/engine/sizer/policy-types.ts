// What the sizer's policy (policy.ts) decides on and what it decides: the observation of each
// lane and of the machine, the actions, the decision. Plain data, no behaviour.
import type { LaneClass, ScaleReason } from '../../../shared/model.js';
import type { BusyLane } from '../machine/critical.js';
import type { MachineFacts } from '../machine/facts.js';

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
  /** Of those leaving, the ones stopped while idle, already counted out by the stop's ledger row (counted in `leaving`). */
  countedOut?: number;
  /** Of those leaving, the ones still running a job that were drained only because all work was paused (counted in `leaving`). */
  drainedForPause?: readonly string[];
  /** Paused by itself (`lanes pause --lane`), until when (null: until resumed); absent: not paused. */
  pausedUntil?: number | null;
  /** Queued, ready to run, and not yet in a worker's hand (retries waiting out their backoff are not counted). */
  waiting: number;
  /** The soonest moment a retry waiting out its backoff becomes ready; null when none waits. */
  nextRetryAt: number | null;
  /** No new worker before then: its worker command keeps dying as it starts; null when it may start. */
  startsBlockedUntil: number | null;
  /** When this lane last gave back a worker because demand fell; null if never. */
  lastShrinkAt: number | null;
  /** Since when it has had more idle workers than it needs (reported back by `decide`); null if not. */
  surplusSince: number | null;
  /** A shell lane: its workers hold nothing of it, so they can move to another shell lane. */
  movable: boolean;
  /** Since when it has held a worker without a break; null while it holds none. */
  servedSince: number | null;
  /** Since when it has had work and no worker; null otherwise. */
  waitingSince: number | null;
  /** Workers moving here from another lane, at the end of their current job. */
  arriving: number;
  /** Its cap at the previous pass, when a person has changed it since; null otherwise. */
  capWas: number | null;
  /** The most workers the machine lets it run for its memory (machine/limits.ts); Infinity: no such limit. */
  limit: number;
  /** Why, in words, when `limit` is below the ceiling; null otherwise. */
  limitText: string | null;
}

export interface Observation {
  now: number;
  tickMs: number;
  ceiling: number;
  /** Why the ceiling is what it is, in words ("quiet: on battery"); absent: the cores. */
  ceilingText?: string;
  lanes: readonly LaneObservation[];
  /** A person paused all work: idle workers stop, busy ones finish their job and leave. */
  paused?: boolean;
  /** The latest reading of the machine, the busy lanes' workers and what each costs: for the one stop made for memory. */
  critical?: { facts: MachineFacts; lanes: readonly BusyLane[]; lastAt: number | null };
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
  /** `cards`: the GPU each new worker is given, where the pass chose one (an ml lane, several cards). */
  | (Change & { kind: 'start'; count: number; cards?: readonly { index: number; uuid: string }[] })
  /** Idle workers: stop now. */
  | (Change & { kind: 'stop'; workers: string[] })
  /** Busy workers: finish the current job, then exit. Never killed to shrink. */
  | (Change & { kind: 'drain'; workers: string[] })
  /** Draining workers, still on their job, drained only for a pause that has ended: they stay, as busy workers. */
  | (Change & { kind: 'keep'; workers: string[] })
  /** A shell lane's worker goes on to another shell lane: an idle one now, a busy one after its job. */
  | (Change & { kind: 'move'; workers: string[]; target: { lane: string; from: number; to: number } })
  /** Memory is critically low: this busy worker stops now, its job queued again without spending an attempt. `at`: the reading. */
  | { kind: 'critical'; lane: string; worker: string; text: string; at: number };

export interface Decision {
  actions: Action[];
  /** When a paced shrink becomes due, so the loop can look again then rather than a tick later. */
  wakeAt: number | null;
  /** Lanes with idle workers beyond what they need; the loop remembers since when. */
  surplus: string[];
}

export type Shares = ReadonlyMap<string, number>;
