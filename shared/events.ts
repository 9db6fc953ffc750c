// Everything the engine announces as it happens, typed once. The HTTP event stream, Electron IPC
// and the window's stores all speak this map. Each delivered event carries a sequence number so a
// client that reconnects can ask for what it missed.
import type { Job, LaneStatus, Nudge, ScaleEvent } from './model.js';

export interface EventMap {
  /** A lane's status moved (workers, waiting, cap, mood …). */
  lane: LaneStatus;
  laneRemoved: { name: string };
  /** A job changed state (queued, started, finished, cancelled, retried). */
  job: Job;
  /** A worker started, stopped or began draining: one ledger row. */
  scale: ScaleEvent;
  /** A lane's nudge appeared, changed or went away. */
  nudge: { lane: string; nudge: Nudge | null };
}

export type EventName = keyof EventMap;

export type LanesEvent = {
  [K in EventName]: { seq: number; type: K; data: EventMap[K] };
}[EventName];

export const EVENT_NAMES: readonly EventName[] = ['lane', 'laneRemoved', 'job', 'scale', 'nudge'];
