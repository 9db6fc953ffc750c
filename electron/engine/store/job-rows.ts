// How a job row reads: as a summary (what lists and events carry, read without parsing the spec
// or the answer) or in full (the detail). The column lists live here so every query selects the
// same shape.
import type { AttemptRecord, Job, JobSpec, JobState, JobSummary } from '../../../shared/model.js';
import { describeSpec, oneLine } from '../../../shared/format.js';
import { COMMAND_SUMMARY_CHARS } from '../../../shared/limits.js';

export const SUMMARY_COLUMNS = 'id, lane, command, state, attempts, max_attempts, created_at, started_at, finished_at, exit_code, error, run_after';

export interface SummaryRow {
  id: number;
  lane: string;
  command: string | null;
  state: JobState;
  attempts: number;
  max_attempts: number;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
  exit_code: number | null;
  error: string | null;
  run_after: number | null;
}

export interface FullRow extends SummaryRow {
  spec: string;
  result: string | null;
  timeout_ms: number | null;
  worker: string | null;
  interrupted: number;
  load_ms: number | null;
}

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

export function toSummary(r: SummaryRow): JobSummary {
  return {
    id: r.id,
    lane: r.lane,
    // Rows from before summaries were stored are described from their spec when read in full.
    command: r.command ?? '',
    state: r.state,
    attempts: r.attempts,
    maxAttempts: r.max_attempts,
    createdAt: r.created_at,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    exitCode: r.exit_code,
    error: r.error,
    runAfter: r.state === 'queued' ? r.run_after : null,
  };
}

export function toJob(r: FullRow, history: AttemptRow[]): Job {
  const spec = JSON.parse(r.spec) as JobSpec;
  return {
    ...toSummary(r),
    command: r.command ?? commandLine(spec),
    spec,
    result: r.result === null ? null : (JSON.parse(r.result) as unknown),
    timeoutMs: r.timeout_ms,
    loadMs: r.load_ms,
    history: history.map((h) => ({ attempt: h.attempt, startedAt: h.started_at, finishedAt: h.finished_at, outcome: h.outcome, exitCode: h.exit_code, error: h.error })),
  };
}
