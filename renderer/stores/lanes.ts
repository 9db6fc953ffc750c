// Lanes as the engine last described them, and the machine they share, plus the window's own
// pending cap edits. The engine's numbers are never overwritten by an edit: `pendingCap` sits
// beside them, so rolling back is just forgetting the edit. The machine lives here, not in a store
// of its own, because it comes in the same snapshot and its ceiling bounds every lane: one seq
// settles both.
import { create } from 'zustand';
import type { LaneStatus, MachineStatus, Paused, Status } from '../../shared/model.js';

export interface LanesState {
  /** The last event (or snapshot) these lanes reflect. */
  seq: number;
  /** The most workers all lanes together may run now: the machine's effective ceiling. */
  ceiling: number;
  /** The machine as the sizer sees it (what holds Lanes back, and why); null before the first status. */
  machine: MachineStatus | null;
  /** All work held by a person, and until when; null when not. */
  paused: Paused | null;
  /** Lane names in the order the engine lists them (new lanes at the end). */
  order: string[];
  byName: Record<string, LaneStatus>;
  /** Cap values sent to the engine whose effect has not been seen yet, with the seq that will show it. */
  pendingCap: Record<string, { cap: number; until: number }>;
  /** The engine's refusal of the last cap change, per lane, in its own words. */
  capError: Record<string, string>;
}

export const useLanes = create<LanesState>(() => ({
  seq: 0,
  ceiling: 1,
  machine: null,
  paused: null,
  order: [],
  byName: {},
  pendingCap: {},
  capError: {},
}));

export function replaceLanes(state: LanesState, status: Status): Partial<LanesState> {
  const byName: Record<string, LaneStatus> = {};
  for (const lane of status.lanes) byName[lane.name] = lane;
  const order = status.lanes.map((l) => l.name);
  return {
    seq: status.seq,
    ceiling: status.machine.ceiling,
    machine: status.machine,
    paused: status.paused,
    order,
    byName,
    pendingCap: settled(keepKeys(state.pendingCap, byName), status.seq),
    capError: keepKeys(state.capError, byName),
  };
}

/** What else a frame of events may say about all lanes: a pause or resume, the machine's limits moving. */
export interface LanesNews {
  paused?: { paused: Paused | null };
  machine?: MachineStatus;
}

/** Lane events up to `seq`: changed lanes replaced, removed ones dropped, a pause or resume and the machine's limits taken. */
export function applyLaneEvents(state: LanesState, seq: number, lanes: LaneStatus[], removed: Iterable<string>, news: LanesNews = {}): Partial<LanesState> {
  const { paused, machine } = news;
  const byName = { ...state.byName };
  let order = state.order;
  for (const lane of lanes) {
    if (!(lane.name in byName)) order = [...order, lane.name];
    byName[lane.name] = lane;
  }
  const gone = new Set(removed);
  for (const name of gone) delete byName[name];
  if (gone.size > 0) order = order.filter((n) => !gone.has(n));
  return {
    seq,
    byName,
    order,
    pendingCap: settled(state.pendingCap, seq),
    ...(paused ? { paused: paused.paused } : {}),
    ...(machine ? { machine, ceiling: machine.ceiling } : {}),
  };
}

/** A pending cap is shown until the lanes reflect the seq at which the engine answered it. */
function settled(pending: LanesState['pendingCap'], seq: number): LanesState['pendingCap'] {
  const out: LanesState['pendingCap'] = {};
  for (const [lane, p] of Object.entries(pending)) if (p.until > seq) out[lane] = p;
  return out;
}

/** Worker processes alive across all lanes, for the header's "in use". */
export function workersInUse(state: LanesState): number {
  let sum = 0;
  for (const name of state.order) sum += state.byName[name]?.workers ?? 0;
  return sum;
}

function keepKeys<T>(record: Record<string, T>, alive: Record<string, unknown>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const [k, v] of Object.entries(record)) if (k in alive) out[k] = v;
  return out;
}
