// The current time, re-read every `everyMs` while `active`: for the right edge of the timeline,
// which moves slower than the once-a-second clock the jobs share (stores/clock.ts).
import { useEffect, useState } from 'react';
import { frozenOr } from '../stores/clock';

export function useNow(everyMs: number, active = true): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    // The time kept from before may be long past: start from now, not from the next tick.
    setNow(Date.now());
    // Stopped while the window is stale: the timeline's right edge stays where the data ends.
    const timer = setInterval(() => setNow(frozenOr(Date.now())), everyMs);
    return () => clearInterval(timer);
  }, [everyMs, active]);
  return active ? now : frozenOr(Date.now());
}
