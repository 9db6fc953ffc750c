// One clock, once a second, for everything on screen that moves with the time alone: a running
// job's "Took" in the list, its "running for" in the detail, a lane held back until a moment. One
// timer for all of them, so the list and the detail never disagree by a tick, and none at all
// while nothing on screen needs it.
import { useEffect } from 'react';
import { create } from 'zustand';
import { isStale, useConnection } from './connection.js';

const TICK_MS = 1_000;

const useClockStore = create(() => ({ now: Date.now() }));

let holders = 0;
let timer: ReturnType<typeof setInterval> | null = null;

function hold(): () => void {
  if (holders++ === 0) {
    useClockStore.setState({ now: Date.now() });
    // A window whose engine is gone shows the moment it lost touch: its clocks stop there.
    timer = setInterval(() => !isStale(useConnection.getState()) && useClockStore.setState({ now: Date.now() }), TICK_MS);
  }
  return () => {
    if (--holders === 0 && timer !== null) {
      clearInterval(timer);
      timer = null;
    }
  };
}

/** The time, ticking once a second while `active`; a component that is not active is not woken. */
export function useSecondClock(active: boolean): number {
  useEffect(() => (active ? hold() : undefined), [active]);
  const now = useClockStore((s) => (active ? s.now : 0));
  return active ? now : frozenOr(Date.now());
}

/** Now, or while the window is stale, the moment it lost touch (what is on screen is from then). */
export function frozenOr(now: number): number {
  const c = useConnection.getState();
  return isStale(c) ? (c.lostAt ?? now) : now;
}
