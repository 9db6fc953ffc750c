// A span of time as people write it — `90` (seconds), `90s`, `15m`, `1h30m`, `2d`, `2w` — for
// `LANES_KEEP`, `lanes clean --older-than` and every CLI flag that takes a span. One parser, so
// the engine's environment and the CLI's flags take and refuse the same text with the same words.

const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** The most a span may be: ten years, well past any retention a laptop wants. */
export const SPAN_MAX_MS = 10 * 365 * 86_400_000;

/** Milliseconds (above 0), or a sentence saying what is wrong with `text`. */
export function parseSpan(text: string): { ms: number } | { problem: string } {
  const t = text.trim().toLowerCase();
  const bad = { problem: `a span is like 90s, 15m, 1h, 2d or 2w, not "${text}"` };
  let ms: number;
  if (/^\d{1,12}(\.\d+)?$/.test(t)) ms = Number(t) * 1000;
  else {
    const parts = [...t.matchAll(/(\d{1,12}(?:\.\d+)?)([smhdw])/g)];
    if (parts.length === 0 || parts.map((m) => m[0]).join('') !== t) return bad;
    ms = parts.reduce((n, m) => n + Number(m[1]) * UNIT_MS[m[2]!]!, 0);
  }
  if (!(ms > 0)) return bad;
  if (ms > SPAN_MAX_MS) return { problem: `a span must be at most ${SPAN_MAX_MS / 86_400_000}d, not "${text}"` };
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
