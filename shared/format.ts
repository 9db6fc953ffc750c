// Words people read, written once: counts with grouped digits in one fixed locale (nudge text,
// CLI tables, tray menu, notifications), so the same backlog reads the same everywhere and output
// does not change with the terminal's or the OS's language; and what a job runs, in one line.
import type { CleanedJob, JobSpec, LaneStatus } from './model.js';

let grouped: Intl.NumberFormat | undefined;

/**
 * 4060 → "4,060". Whole numbers without Intl: building a NumberFormat costs a short-lived CLI
 * call about 20 ms, so one is made only for a number with a fraction.
 */
export const groupedCount = (n: number): string =>
  Number.isSafeInteger(n) ? String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',') : (grouped ??= new Intl.NumberFormat('en-US')).format(n);

/** (1, 'worker') → "1 worker"; (4060, 'job') → "4,060 jobs". */
export const plural = (n: number, one: string, many = `${one}s`): string => `${groupedCount(n)} ${n === 1 ? one : many}`;

/** A duration as a person estimates one: "about 40 s", "about 38 min", "about 11 h", "about 3 days". */
export function aboutDuration(ms: number): string {
  const s = ms / 1000;
  if (s < 90) return `about ${Math.max(1, Math.round(s))} s`;
  if (s < 90 * 60) return `about ${Math.round(s / 60)} min`;
  if (s < 48 * 3600) return `about ${Math.round(s / 3600)} h`;
  return `about ${Math.round(s / 86_400)} days`;
}

/** Jobs a lane still has to finish: waiting, waiting to retry, and running. */
export const jobsLeft = (l: Pick<LaneStatus, 'waiting' | 'delayed' | 'running'>): number => l.waiting + l.delayed + l.running;

/**
 * A lane's estimate as the CLI, the tray and the window say it: "4,533 left, about 38 min", or
 * "4,533 left, estimating…" until the engine has one it can stand by; nothing when nothing is
 * left or while all work is paused (nothing would move).
 */
export function etaWords(l: Pick<LaneStatus, 'waiting' | 'delayed' | 'running' | 'etaMs' | 'etaState'>): string | null {
  const left = jobsLeft(l);
  if (left === 0 || l.etaState === 'paused' || l.etaState === 'off' || l.etaState === 'none') return null;
  return `${groupedCount(left)} left, ${l.etaState === 'known' && l.etaMs !== null ? aboutDuration(l.etaMs) : 'estimating…'}`;
}

/**
 * The name among `names` a typo most likely meant — "wroker" → "worker" — or null when none is
 * close: at most two edits (a letter added, dropped, changed, or two swapped), fewer for short names.
 */
export function closestName(typed: string, names: readonly string[]): string | null {
  const most = typed.length <= 3 ? 1 : 2;
  let best: { name: string; d: number } | null = null;
  for (const name of names) {
    const d = editDistance(typed, name);
    if (d > 0 && d <= most && (best === null || d < best.d)) best = { name, d };
  }
  return best?.name ?? null;
}

/** Edits from one word to another, a swap of neighbours counting as one (optimal string alignment). */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/** One line of at most `max` characters: line breaks shown as ⏎, the end cut with an ellipsis. */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s*\n\s*/g, ' ⏎ ');
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** A word as a POSIX shell would need it quoted to mean the same: `it's` → `'it'\''s'`. */
const quoteWord = (w: string) => (w !== '' && /^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`);

/** What a job runs, as a person would type it: argv quoted where needed, a shell line as written, a payload as JSON. */
export function describeSpec(spec: JobSpec): string {
  if (spec.kind === 'shell') return spec.script;
  if (spec.kind === 'argv') return spec.argv.map(quoteWord).join(' ');
  return JSON.stringify(spec.payload) ?? 'null';
}

/**
 * Splits a command line into words the way a POSIX shell would for plain quoting (single and
 * double quotes, backslash escapes) — enough for a worker command typed as one line, such as
 * `python3 serve.py --model "small en"`; no variables or globs, since no shell is involved.
 * The window's lane form needs it as the CLI's `--worker-command` does (electron/cli/args.ts has
 * the same rules and can delegate here).
 */
export function splitWords(text: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quote === "'") {
      if (c === "'") quote = null;
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === '\\' && i + 1 < text.length && '"\\$`'.includes(text[i + 1] as string)) word += text[++i];
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < text.length) {
      word += text[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote) throw new Error(`unterminated ${quote} quote in "${text}"`);
  if (inWord) words.push(word);
  return words;
}

/** Bytes as a person reads them: "450 MB", "1.5 GB" (binary units, rounded first so 1023.6 MB reads "1.0 GB"). */
export function aboutBytes(bytes: number): string {
  const mb = bytes / 2 ** 20;
  if (Math.round(mb) < 1024) return `${Math.round(mb)} MB`;
  return `${(mb / 1024).toFixed(mb >= 10 * 1024 ? 0 : 1)} GB`;
}

/** Local wall-clock time, with the date only when it is not today. */
export function clock(at: number, now = Date.now()): string {
  const d = new Date(at);
  const pad = (n: number) => String(n).padStart(2, '0');
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
  if (new Date(now).toDateString() === d.toDateString()) return time;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${time}`;
}

/** The same moment to the minute, for a time a person plans by: "02:00", or "2026-12-04 02:00" on another day. */
export const clockMinute = (at: number, now = Date.now()): string => clock(at, now).replace(/:\d\d$/, '');

/** How a cleaned job ended, from its record alone: "succeeded", "failed (exit 3)", "cancelled". */
export const cleanedOutcome = (job: Pick<CleanedJob, 'state' | 'exitCode'>): string => (job.state === 'failed' && job.exitCode !== null ? `failed (exit ${job.exitCode})` : job.state);

/** What a cleaned job says instead of "no such job": "job 41 succeeded at 14:02:10 and was cleaned at 2026-12-15 09:00:00". */
export function cleanedWords(job: CleanedJob, now = Date.now()): string {
  const how = cleanedOutcome(job);
  const when = job.finishedAt !== null ? ` at ${clock(job.finishedAt, now)}` : '';
  const gone = job.cleanedAt !== null ? `was cleaned at ${clock(job.cleanedAt, now)}` : 'its record has since been dropped by its shared queue';
  return `job ${job.id} in lane ${job.lane} ${how}${when} and ${gone}`;
}
