// How far a running job says it has got: the one reading of a report, wherever it comes from (a
// persistent worker's line, `lanes progress` in a shell job, the worker runtime's message to the
// engine), and the one way it is said. A report is untrusted: one that does not read as progress
// is ignored and counted, and never fails the job that sent it.
import type { JobProgress } from './model.js';
import { groupedCount } from './format.js';

/** The longest message a report keeps; the rest is cut. */
export const PROGRESS_MESSAGE_MAX_CHARS = 200;
/** The largest count a report may give ("done of total"): beyond it a count is not a count. */
const COUNT_MAX = Number.MAX_SAFE_INTEGER;

/** What a job reports: how far (0 … 1), optionally the count it is at, and a few words. */
export type ProgressReport = Pick<JobProgress, 'fraction' | 'done' | 'total' | 'message'>;

export type ProgressReading = { ok: true; report: ProgressReport } | { ok: false; why: string };

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= COUNT_MAX;

/**
 * A report as a job sent it: `{done, total}` (done ≤ total, total > 0), or `{fraction}` (0 … 1),
 * or a bare number read as a fraction; `message` optional. What is not one says why.
 */
export function readProgress(value: unknown): ProgressReading {
  const bad = (why: string): ProgressReading => ({ ok: false, why });
  if (typeof value === 'number') value = { fraction: value };
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return bad('progress must be a number from 0 to 1 or an object');
  const { fraction, done, total, message } = value as Record<string, unknown>;
  if (message !== undefined && typeof message !== 'string') return bad('progress message must be a string');
  const words = typeof message === 'string' && message.trim() !== '' ? { message: oneLineMessage(message) } : {};
  if (done !== undefined || total !== undefined) {
    if (!isCount(done) || !isCount(total)) return bad('progress done and total must both be numbers of at least 0');
    if (total === 0) return bad('progress total must be more than 0');
    if (done > total) return bad(`progress done (${done}) is more than its total (${total})`);
    return { ok: true, report: { fraction: done / total, done, total, ...words } };
  }
  if (typeof fraction !== 'number' || !Number.isFinite(fraction) || fraction < 0 || fraction > 1) return bad('progress fraction must be a number from 0 to 1');
  return { ok: true, report: { fraction, ...words } };
}

/** A message kept as one short line: line breaks and control characters become spaces. */
function oneLineMessage(text: string): string {
  // eslint-disable-next-line no-control-regex
  const flat = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return flat.length <= PROGRESS_MESSAGE_MAX_CHARS ? flat : `${flat.slice(0, PROGRESS_MESSAGE_MAX_CHARS - 1)}…`;
}

/**
 * What `lanes progress` is given: `12000/40000`, `30%` or `0.3`, and optional words. Returns the
 * report, or why the words do not say one (a usage error: the person typed it).
 */
export function progressFromArgs(amount: string, words: readonly string[]): ProgressReading {
  const message = words.join(' ');
  const withWords = message.trim() === '' ? {} : { message };
  const count = /^\s*(\d+(?:\.\d+)?)\s*\/\s*(\d+(?:\.\d+)?)\s*$/.exec(amount);
  if (count) return readProgress({ done: Number(count[1]), total: Number(count[2]), ...withWords });
  const percent = /^\s*(\d+(?:\.\d+)?)\s*%\s*$/.exec(amount);
  if (percent) return readProgress({ fraction: Number(percent[1]) / 100, ...withWords });
  if (/^\s*\d*\.?\d+\s*$/.test(amount)) return readProgress({ fraction: Number(amount), ...withWords });
  return { ok: false, why: `"${amount}" is not progress: give DONE/TOTAL (12000/40000), a percentage (30%) or a fraction (0.3)` };
}

/** "12,000 of 40,000", or "30 %" without a count. */
export function progressCount(p: Pick<JobProgress, 'fraction' | 'done' | 'total'>): string {
  if (p.done !== undefined && p.total !== undefined) return `${groupedCount(p.done)} of ${groupedCount(p.total)}`;
  return progressPercent(p);
}

/** "30 %": whole percent, never 100 % before it is all done. */
function progressPercent(p: Pick<JobProgress, 'fraction'>): string {
  const pct = p.fraction >= 1 ? 100 : Math.min(99, Math.floor(p.fraction * 100));
  return `${pct} %`;
}

/** The whole of it in one line: "12,000 of 40,000 (30 %) — embedding". */
export function progressWords(p: JobProgress): string {
  const head = p.done !== undefined && p.total !== undefined ? `${progressCount(p)} (${progressPercent(p)})` : progressPercent(p);
  return p.message ? `${head} — ${p.message}` : head;
}
