// A span of time as people write it — `90s`, `15m`, `1h30m`, `2d`, `2w` — for `LANES_KEEP`,
// `lanes clean --older-than`, every CLI flag that takes a span and the window's fields. One parser,
// so the engine's environment, the CLI's flags and the window take and refuse the same text with
// the same words. A unit is required: a bare `30` could mean seconds or days, and reading the
// wrong one (LANES_KEEP=30 meant 30 s) loses a month of jobs. Each kind of span has one limit,
// the one the API takes (SPAN_LIMITS), so a span the CLI refuses is one the engine would refuse.
import { SCHEDULE_MAX_MS, TIMEOUT_MAX_SECONDS } from './limits.js';

const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** The most a span may be: ten years, well past any retention a laptop wants. */
export const SPAN_MAX_MS = 10 * 365 * 86_400_000;

/** The units, as a refusal names them. */
export const SPAN_UNITS = 's, m, h, d or w (90s, 15m, 1h30m, 2d, 2w)';

/** The longest span of each kind, as the API takes it, and how a person says it. */
export interface SpanLimit {
  ms: number;
  words: string;
}

export const SPAN_LIMITS = {
  /** How long finished jobs are kept, how far back `clean` looks. */
  keep: { ms: SPAN_MAX_MS, words: 'ten years (3650d)' },
  /** How far ahead a job may be scheduled: --delay, --at, delaySeconds, notBefore, the window's "when". */
  schedule: { ms: SCHEDULE_MAX_MS, words: 'a year (366d)' },
  /** A job's timeout, a pause, a snoozed nudge. */
  week: { ms: TIMEOUT_MAX_SECONDS * 1000, words: 'a week (7d)' },
} as const satisfies Record<string, SpanLimit>;

/** Milliseconds (above 0, at most `limit`), or a sentence saying what is wrong with `text`. */
export function parseSpan(text: string, limit: SpanLimit = SPAN_LIMITS.keep): { ms: number } | { problem: string } {
  const t = text.trim().toLowerCase();
  if (/^\d+(\.\d+)?$/.test(t)) return { problem: `a span needs a unit: ${SPAN_UNITS}; "${text}" has none` };
  const bad = { problem: `a span is a number and a unit: ${SPAN_UNITS}, not "${text}"` };
  const parts = [...t.matchAll(/(\d{1,12}(?:\.\d+)?)([smhdw])/g)];
  if (parts.length === 0 || parts.map((m) => m[0]).join('') !== t) return bad;
  const ms = parts.reduce((n, m) => n + Number(m[1]) * UNIT_MS[m[2]!]!, 0);
  if (!(ms > 0)) return bad;
  if (ms > limit.ms) return { problem: `a span must be at most ${limit.words}, not "${text}"` };
  return { ms: Math.round(ms) };
}

/** A span in its largest whole unit: 2w, 14d, 12h, 5s. */
export function spanText(ms: number): string {
  for (const unit of ['w', 'd', 'h', 'm'] as const) {
    const size = UNIT_MS[unit]!;
    if (ms >= size && ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${Math.round(ms / 1000)}s`;
}

/** The hour "until tomorrow" ends at, local time: the start of a working day. */
export const TOMORROW_HOUR = 8;

/**
 * "Until tomorrow": 08:00 local time on the next calendar day, whatever the hour now (paused at
 * 01:00, it is not 08:00 the same morning). Pure: `now` is passed in; the clock is the caller's.
 */
export function tomorrowMorning(now: number): number {
  const d = new Date(now);
  return new Date(d.getFullYear(), d.getMonth(), d.getDate() + 1, TOMORROW_HOUR, 0, 0, 0).getTime();
}
