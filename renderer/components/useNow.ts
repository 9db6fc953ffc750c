// The current time, re-read every `everyMs` while `active`: for the right edge of the timeline,
// which moves slower than the once-a-second clock the jobs share (stores/clock.ts).
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
