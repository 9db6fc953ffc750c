// A CSS media query, live, for the few decisions the page makes in script as well as in CSS: how
// the job detail opens, and which colours the charts draw with.
import { useSyncExternalStore } from 'react';

/**
 * Wide and tall enough for the lanes, the job list and a job's detail side by side on one screen.
 * The same numbers are in styles/base.css (the page's frame); below them, e.g. at 200 % zoom, the
 * page scrolls as a whole and a job's detail opens as a view of its own.
 */
export const ROOMY = '(min-width: 52rem) and (min-height: 30rem)';

export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const mq = window.matchMedia(query);
      mq.addEventListener('change', onChange);
      return () => mq.removeEventListener('change', onChange);
    },
    () => window.matchMedia(query).matches,
  );
}
