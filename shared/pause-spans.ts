// How long a person may pause for, one list for every door that offers it (the window's Pause
// menu; the tray and the CLI can take the same): a quarter of an hour, an hour, four hours, until
// tomorrow morning, a span typed, or until resumed. Pure.
import { parseSpan, SPAN_LIMITS, spanText } from './span.js';

/** "Until tomorrow" is the one rule every door uses: 08:00 local time the next day. */
export { TOMORROW_HOUR, tomorrowMorning } from './span.js';

/** The fixed spans, shortest first. */
export const PAUSE_SPANS: readonly { label: string; seconds: number }[] = [
  { label: '15 minutes', seconds: 15 * 60 },
  { label: '1 hour', seconds: 3_600 },
  { label: '4 hours', seconds: 4 * 3_600 },
];

/** A fixed span's key, as the tray's items and the CLI's `--for` write it: "15m", "1h", "4h". */
export const pauseKey = (span: { seconds: number }): string => spanText(span.seconds * 1000);

/** A typed span ("90m", "2h30m") as a pause's seconds, or what is wrong with it; at most what the engine takes (SPAN_LIMITS.week). */
export function pauseSpan(text: string): { seconds: number } | { problem: string } {
  const s = parseSpan(text);
  if ('problem' in s) return { problem: `a pause is a span like 30m, 2h or 1h30m, not "${text.trim()}"` };
  if (s.ms > SPAN_LIMITS.week.ms) return { problem: `a pause is at most ${SPAN_LIMITS.week.words}` };
  return { seconds: s.ms / 1000 };
}
