// How long a person may pause for, one list for every door that offers it (the window's Pause
// menu; the tray and the CLI can take the same): a quarter of an hour, an hour, four hours, until
// tomorrow morning, a span typed, or until resumed. Pure.
import { TIMEOUT_MAX_SECONDS } from './limits.js';
import { parseSpan } from './span.js';

/** The fixed spans, shortest first. */
export const PAUSE_SPANS: readonly { label: string; seconds: number }[] = [
  { label: '15 minutes', seconds: 15 * 60 },
  { label: '1 hour', seconds: 3_600 },
  { label: '4 hours', seconds: 4 * 3_600 },
];

/** "Until tomorrow" ends at this hour of the next morning, local time: when a working day starts. */
export const TOMORROW_HOUR = 8;

/**
 * Whole seconds from `now` until tomorrow at TOMORROW_HOUR:00, local time (a day that skips or
 * repeats an hour included), rounded up: the engine counts them from its own moment, a little
 * later, so the pause ends at 08:00:00 and never reads "until 07:59:59".
 */
export function secondsUntilTomorrow(now: number): number {
  const d = new Date(now);
  const end = new Date(d.getFullYear(), d.getMonth(), d.getDate() + 1, TOMORROW_HOUR, 0, 0, 0).getTime();
  return Math.ceil((end - now) / 1000);
}

/** The most a pause may last: the engine refuses longer (a week). */
export const PAUSE_MAX_SECONDS = TIMEOUT_MAX_SECONDS;

/** A typed span ("90m", "2h30m") as a pause's seconds, or what is wrong with it. */
export function pauseSpan(text: string): { seconds: number } | { problem: string } {
  const s = parseSpan(text);
  if ('problem' in s) return { problem: `a pause is a span like 30m, 2h or 1h30m, not "${text.trim()}"` };
  if (s.ms > PAUSE_MAX_SECONDS * 1000) return { problem: 'a pause is at most a week (7d)' };
  return { seconds: s.ms / 1000 };
}
