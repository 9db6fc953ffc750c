// Everything the engine announces as it happens, typed once. The HTTP event stream, Electron IPC
// and every client speak this map. Each event carries a sequence number that is unique across
// runs of the engine (see EventHub), so a client that reconnects asks for what it missed by the
// last number it saw, over any transport, and a number from an earlier run is plainly not one
// of this run's.
import type { JobSummary, LaneStatus, MachineStatus, Paused, ScaleEvent } from './model.js';

export interface EventMap {
  /** A lane's status moved (workers, waiting, cap, mood, nudge …). */
  lane: LaneStatus;
  laneRemoved: { name: string };
  /** One job changed state (queued, started, finished, cancelled, retried). */
  job: JobSummary;
  /**
   * A running job said how far it has got: its summary, `progress` as it now is. At most a few
   * a second per job, however often the job reports (the latest wins).
   */
  progress: JobSummary;
  /**
   * Many jobs changed at once: a large batch queued, cancelled or retried, jobs of a shared
   * lane moved on another engine, or finished jobs cleaned (`removed`: retention or `clean`).
   * Re-read what you show of them.
   */
  jobs: { ids: number[]; change: 'added' | 'changed' | 'removed' };
  /** A worker started, stopped or began draining: one ledger row. */
  scale: ScaleEvent;
  /** All work was paused or resumed. */
  paused: { paused: Paused | null };
  /** The machine's limits moved (the effective ceiling, what binds it, the person at it, power): Status.machine. */
  machine: MachineStatus;
}

export type EventName = keyof EventMap;

export type LanesEvent = {
  [K in EventName]: { seq: number; type: K; data: EventMap[K] };
}[EventName];

/** Over the HTTP stream, the first message: `{ seq }`, the feed goes on after it. */
export const START_EVENT = 'start';
/** …or instead, when the missed events are no longer held: `{ seq }`, reload your snapshots. */
export const RESET_EVENT = 'reset';
