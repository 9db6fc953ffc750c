// A moment as people write it for `--at` and the window's "when": an ISO 8601 date and time
// (`2026-12-02T02:00`, `2026-12-02 02:00:30`, `2026-12-02T01:00Z`, `…+01:00`). One parser for
// the CLI and the window. A date the calendar does not have (February 30th, April 31st, the 29th
// of February outside a leap year) is refused, not rolled over into the next month as Date.parse
// does: a job meant for a day that does not exist has no day to run on that anyone meant.

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-](\d{2}):?(\d{2}))?)?$/;

const daysIn = (year: number, month: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** Milliseconds since the epoch, or a sentence saying what is wrong with `text`. */
export function parseIsoTime(text: string): { ms: number } | { problem: string } {
  const m = ISO.exec(text.trim());
  if (!m) return { problem: `a time is an ISO 8601 date and time (2026-12-02T02:00), not "${text}"` };
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12) return { problem: `${m[1]}-${m[2]} has no month ${month}: months go from 01 to 12` };
  if (day < 1 || day > daysIn(year, month)) return { problem: `${m[1]}-${m[2]}-${m[3]} is not a date: that month has ${daysIn(year, month)} days` };
  if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6] ?? 0) > 59)) return { problem: `"${text}" is not a time of day: hours go to 23, minutes and seconds to 59` };
  if (m[8] !== undefined && (Number(m[8]) > 23 || Number(m[9]) > 59)) return { problem: `"${text}" has no such offset from UTC` };
  const ms = Date.parse(text.trim());
  return Number.isNaN(ms) ? { problem: `a time is an ISO 8601 date and time (2026-12-02T02:00), not "${text}"` } : { ms };
}
