// A shared job's attempts, kept where BullMQ keeps a failure's stack: each attempt's record on a
// marked line, read back field by field (a Redis is not trusted to hold what Lanes wrote).
import { z } from 'zod';
import type { AttemptRecord, JobState } from '../../../shared/model.js';
import { ERROR_MAX_CHARS } from '../../../shared/limits.js';
import { oneLine } from '../../../shared/format.js';
/** Attempt records kept per job. */
export const HISTORY_MAX = 20;

/** An error cut to what a record keeps. */
export const clip = (s: string | null): string | null => (s === null || s.length <= ERROR_MAX_CHARS ? s : `${s.slice(0, ERROR_MAX_CHARS - 1)}…`);

/** Marks the line of an attempt's record in a failure's stack (the line before it is in words). */
const RECORD_LINE = 'lanes attempt record: ';

/**
 * An attempt that did not succeed, as BullMQ keeps a failure's stack: a line of words, which is
 * what BullMQ's tools show (bull-board's Error tab), then its record, in JSON, for Lanes to read.
 */
export function attemptError(record: AttemptRecord, error: Error): Error {
  error.stack = `attempt ${record.attempt} ${record.outcome}: ${oneLine(record.error ?? record.outcome, ERROR_MAX_CHARS)}\n${RECORD_LINE}${JSON.stringify(record)}`;
  return error;
}

/** The record in one stack entry: on its marked line, or the whole entry (as Lanes wrote them before the words). */
function recordIn(entry: string): unknown {
  const at = entry.indexOf(RECORD_LINE);
  return JSON.parse(at >= 0 ? entry.slice(at + RECORD_LINE.length) : entry);
}

const attemptShape = z.object({
  attempt: z.number().int().min(0).max(1e6),
  startedAt: z.number().nullable(),
  finishedAt: z.number(),
  outcome: z.enum(['failed', 'cancelled', 'interrupted']),
  exitCode: z.number().int().nullable(),
  error: z.string().nullable(),
});

/** The attempt records in a job's stacktrace, oldest first; entries that are not Lanes' are left out. */
export function attemptsOf(stacktrace: unknown): AttemptRecord[] {
  if (!Array.isArray(stacktrace)) return [];
  const out: AttemptRecord[] = [];
  for (const entry of stacktrace.slice(-HISTORY_MAX)) {
    try {
      const parsed = attemptShape.safeParse(recordIn(String(entry)));
      if (parsed.success) out.push({ ...parsed.data, error: clip(parsed.data.error) });
    } catch {
      // Not one of ours.
    }
  }
  return out;
}

/**
 * The attempts BullMQ started that left no record — their engine was killed, or lost the job's
 * lock, so nothing wrote how it ended — put back in their place as cut short, so the history has
 * one row per attempt. The machine is known only for the last one, while no engine has claimed
 * the job since (BullMQ keeps who processed it last).
 */
export function withCutShort(history: AttemptRecord[], f: { attempts: number; state: JobState; machine?: string; at: number }): AttemptRecord[] {
  const recorded = new Set(history.map((a) => a.attempt));
  // The attempt running now, or the one that succeeded, ended (or ends) on its own.
  const current = f.state === 'running' || f.state === 'succeeded' ? f.attempts : null;
  const missing: AttemptRecord[] = [];
  for (let n = Math.max(1, f.attempts - HISTORY_MAX + 1); n <= f.attempts; n++) {
    if (recorded.has(n) || n === current) continue;
    const last = n === f.attempts;
    const where = last && f.machine !== undefined ? ` on ${f.machine}` : '';
    const error = `cut short${where}: the engine running it stopped, or lost the lane's lock on it`;
    // No engine saw it end: when it did is not known; the job's latest moment stands in.
    missing.push({ attempt: n, startedAt: null, finishedAt: f.at, outcome: 'interrupted', exitCode: null, error, ...(last && f.machine !== undefined ? { machine: f.machine } : {}) });
  }
  return [...history, ...missing].sort((a, b) => a.attempt - b.attempt);
}
