// How long a person may pause for, one list for every door that offers it (the window's Pause
// menu; the tray and the CLI can take the same): a quarter of an hour, an hour, four hours, until
// tomorrow morning, a span typed, or until resumed. Pure.
import { TIMEOUT_MAX_SECONDS } from './limits.js';
import { parseSpan } from './span.js';

/** "Until tomorrow" is the one rule every door uses: 08:00 local time the next day. */
export { TOMORROW_HOUR, tomorrowMorning } from './span.js';

/** The fixed spans, shortest first. */
export const PAUSE_SPANS: readonly { label: string; seconds: number }[] = [
  { label: '15 minutes', seconds: 15 * 60 },
  { label: '1 hour', seconds: 3_600 },
  { label: '4 hours', seconds: 4 * 3_600 },
];

/** The most a pause may last: the engine refuses longer (a week). */
export const PAUSE_MAX_SECONDS = TIMEOUT_MAX_SECONDS;

/** A typed span ("90m", "2h30m") as a pause's seconds, or what is wrong with it. */
export function pauseSpan(text: string): { seconds: number } | { problem: string } {
  const s = parseSpan(text);
  if ('problem' in s) return { problem: `a pause is a span like 30m, 2h or 1h30m, not "${text.trim()}"` };
  if (s.ms > PAUSE_MAX_SECONDS * 1000) return { problem: 'a pause is at most a week (7d)' };
  return { seconds: s.ms / 1000 };
}
