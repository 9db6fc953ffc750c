// The current time, re-read every `everyMs` while `active`: for the few things on screen that
// move with the clock alone (a running job's age, the right edge of the timeline). One hook is one
// timer, so a list asks once for all its rows.
import { useEffect, useState } from 'react';

export function useNow(everyMs: number, active = true): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    // The time kept from before may be long past: start from now, not from the next tick.
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs, active]);
  return active ? now : Date.now();
}
