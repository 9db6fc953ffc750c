// Lanes as the engine last described them, plus the window's own pending cap edits. The engine's
// numbers are never overwritten by an edit: `pendingCap` sits beside them, so rolling back is just
// forgetting the edit.
import { create } from 'zustand';
import type { LaneStatus, Nudge } from '../../shared/model';

export interface LanesState {
  ceiling: number;
  /** Lane names in the order the engine lists them (new lanes at the end). */
  order: string[];
  byName: Record<string, LaneStatus>;
  /** Cap values sent to the engine and not answered yet. */
  pendingCap: Record<string, number>;
  /** The engine's refusal of the last cap change, per lane, in its own words. */
  capError: Record<string, string>;
}

export const useLanes = create<LanesState>(() => ({
  ceiling: 1,
  order: [],
  byName: {},
  pendingCap: {},
  capError: {},
}));

export function replaceLanes(state: LanesState, ceiling: number, lanes: LaneStatus[]): Partial<LanesState> {
  const byName: Record<string, LaneStatus> = {};
  for (const lane of lanes) byName[lane.name] = lane;
  const order = lanes.map((l) => l.name);
  return { ceiling, order, byName, pendingCap: keepKeys(state.pendingCap, byName), capError: keepKeys(state.capError, byName) };
}

export function upsertLanes(state: LanesState, lanes: LaneStatus[]): Partial<LanesState> {
  if (lanes.length === 0) return {};
  const byName = { ...state.byName };
  let order = state.order;
  for (const lane of lanes) {
    if (!(lane.name in byName)) order = [...order, lane.name];
    byName[lane.name] = lane;
  }
  return { byName, order };
}

export function removeLanes(state: LanesState, names: string[]): Partial<LanesState> {
  if (names.length === 0) return {};
  const gone = new Set(names);
  const byName = { ...state.byName };
  for (const name of names) delete byName[name];
  return { byName, order: state.order.filter((n) => !gone.has(n)) };
}

export function setNudges(state: LanesState, nudges: Map<string, Nudge | null>): Partial<LanesState> {
  if (nudges.size === 0) return {};
  const byName = { ...state.byName };
  for (const [name, nudge] of nudges) {
    const lane = byName[name];
    if (lane) byName[name] = { ...lane, nudge };
  }
  return { byName };
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
