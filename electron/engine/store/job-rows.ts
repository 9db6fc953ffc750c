// How a job row reads: as a summary (what lists and events carry, read without parsing the spec
// or the answer) or in full (the detail). The column lists live here so every query selects the
// same shape.
import type { AttemptRecord, Job, JobProgress, JobSpec, JobState, JobSummary } from '../../../shared/model.js';
import { describeSpec, oneLine } from '../../../shared/format.js';
import { COMMAND_SUMMARY_CHARS } from '../../../shared/limits.js';
import { parseSpecJson } from '../../../shared/schemas.js';

export const SUMMARY_COLUMNS = 'id, lane, command, state, attempts, max_attempts, created_at, started_at, finished_at, exit_code, error, run_after, priority, not_before, deps_left, labels, restart_of, progress, blocked_by';
/** A summary's columns, then what a worker needs to run the job. */
export const CLAIMED_COLUMNS = `${SUMMARY_COLUMNS}, spec, timeout_ms`;
/** Everything the detail shows. */
export const FULL_COLUMNS = `${CLAIMED_COLUMNS}, result, load_ms, logs_trimmed`;

/**
 * Rows are read raw, as arrays in the order of the column lists above: on the busiest path a row
 * read as an object costs more than the SQL that found it (SQLite's binding builds it property
 * by property), and the summary made from it is a second object anyway.
 */
export type SummaryRow = [
  id: number,
  lane: string,
  command: string | null,
  state: JobState,
  attempts: number,
  maxAttempts: number,
  createdAt: number,
  startedAt: number | null,
  finishedAt: number | null,
  exitCode: number | null,
  error: string | null,
  runAfter: number | null,
  priority: number,
  notBefore: number | null,
  depsLeft: number,
  labels: string | null,
  restartOf: number | null,
  progress: string | null,
  blockedBy: number | null,
];
/** Where the columns after a summary's are in a row: what a worker needs, then what the detail adds. */
export const SPEC_AT = 19;
export const TIMEOUT_AT = 20;
const RESULT_AT = 21;
const LOAD_MS_AT = 22;
const LOGS_TRIMMED_AT = 23;
export type ClaimedRow = [...SummaryRow, spec: string, timeoutMs: number | null];
export type FullRow = [...ClaimedRow, result: string | null, loadMs: number | null, logsTrimmed: number];

export interface AttemptRow {
  attempt: number;
  started_at: number | null;
  finished_at: number;
  outcome: AttemptRecord['outcome'];
  exit_code: number | null;
  error: string | null;
}

/** The line lists show for a spec. */
export const commandLine = (spec: JobSpec): string => oneLine(describeSpec(spec), COMMAND_SUMMARY_CHARS);

export function toSummary(r: readonly [...SummaryRow, ...unknown[]]): JobSummary {
  const state = r[3];
  const summary: JobSummary = {
    id: r[0],
    lane: r[1],
    // Rows from before summaries were stored are described from their spec when read in full.
    command: r[2] ?? '',
    state,
    attempts: r[4],
    maxAttempts: r[5],
    createdAt: r[6],
    startedAt: r[7],
    finishedAt: r[8],
    exitCode: r[9],
    error: r[10],
    runAfter: state === 'queued' ? r[11] : null,
  };
  // Only what differs from an ordinary job, so most summaries stay as small as they were.
  if (r[12] !== 0) summary.priority = r[12];
  if (state === 'queued' && r[13] !== null) summary.notBefore = r[13];
  if (state === 'queued' && r[14] > 0) summary.waitingFor = r[14];
  if (r[15] !== null) summary.labels = JSON.parse(r[15]) as string[];
  if (r[16] !== null) summary.restartOf = r[16];
  // A queued job's last run is behind it: what it said then is not how far it has got now.
  const progress = r[17] !== null && state !== 'queued' ? storedProgress(r[17]) : undefined;
  if (progress) summary.progress = progress;
  // Stored when it was failed for that job (migration 0019), never read from its words.
  if (state === 'failed' && r[18] !== null) summary.blockedBy = r[18];
  return summary;
}

/** The engine wrote it (progress/progress-board.ts); a row it cannot read shows no progress rather than failing a list. */
function storedProgress(text: string): JobProgress | undefined {
  try {
    const p = JSON.parse(text) as JobProgress;
    return typeof p?.fraction === 'number' && typeof p.at === 'number' ? p : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A stored spec, parsed by the one parse every spec gets (shared/schemas.ts). One that fails it
 * was failed with those words when it came up to run; shown, it says it cannot be read.
 */
export function storedSpec(text: string): { spec: JobSpec; command: string } {
  const parsed = parseSpecJson(text);
  if ('spec' in parsed) return { spec: parsed.spec, command: commandLine(parsed.spec) };
  return { spec: { kind: 'payload', payload: { unreadable: text.slice(0, 200) } }, command: `(a stored command Lanes cannot read: ${parsed.problem})`.slice(0, 200) };
}

/** The one-line description a row gets when it has none stored. */
export const describedSpec = (text: string): string => storedSpec(text).command;

export function toJob(r: FullRow, history: AttemptRow[]): Job {
  const { spec, command } = storedSpec(r[SPEC_AT]);
  return {
    ...toSummary(r),
    command: r[2] ?? command,
    spec,
    result: r[RESULT_AT] === null ? null : (JSON.parse(r[RESULT_AT]) as unknown),
    timeoutMs: r[TIMEOUT_AT],
    loadMs: r[LOAD_MS_AT],
    ...(r[LOGS_TRIMMED_AT] === 1 ? { logsTrimmed: true } : {}),
    history: history.map((h) => ({ attempt: h.attempt, startedAt: h.started_at, finishedAt: h.finished_at, outcome: h.outcome, exitCode: h.exit_code, error: h.error })),
  };
}
