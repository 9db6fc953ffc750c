// The jobs list (newest first, paged with `beforeId`) and the one job open in the detail pane.
// Rows are only what has been scrolled into view so far; the total comes from the lanes' own
// counts, so 100,000 queued jobs cost one page of rows, not 100,000.
import { create } from 'zustand';
import type { Job, JobState, JobSummary, LogChunk } from '../../shared/model.js';
import { preferredStream } from '../job-words.js';

export interface JobFilter {
  lane: string | null;
  state: JobState | null;
}

export interface LogView {
  stream: LogChunk['stream'];
  text: string;
  nextOffset: number;
  truncated: boolean;
  loading: boolean;
  /** The person picked this stream; the window no longer picks one for them. */
  chosen: boolean;
}

export interface JobsState {
  /** The last event (or page) the rows reflect. */
  seq: number;
  filter: JobFilter;
  rows: JobSummary[];
  nextBeforeId: number | null;
  loading: boolean;
  error: string | null;
  selectedId: number | null;
  /** The row the keyboard is on: the open job, or the last one open, so closing returns to it. */
  cursorId: number | null;
  /** The open job in full, once read; its summary fields follow the job's events. */
  detail: Job | null;
  /** The last event (or answer) the detail reflects. */
  detailSeq: number;
  log: LogView;
  /** The engine's refusal of the last cancel / retry. */
  actionError: string | null;
  /** Jobs a cancel was sent for, until their state shows it went through (or the engine refuses). */
  cancelling: Record<number, true>;
}

export const EMPTY_LOG: LogView = { stream: 'stdout', text: '', nextOffset: 0, truncated: false, loading: false, chosen: false };

export const useJobs = create<JobsState>(() => ({
  seq: 0,
  filter: { lane: null, state: null },
  rows: [],
  nextBeforeId: null,
  loading: false,
  error: null,
  selectedId: null,
  cursorId: null,
  detail: null,
  detailSeq: 0,
  log: EMPTY_LOG,
  actionError: null,
  cancelling: {},
}));

/** Rows kept after live additions; older ones are paged in again on demand. */
const LIVE_ROW_LIMIT = 5_000;

export function matches(filter: JobFilter, job: JobSummary): boolean {
  return (filter.lane === null || job.lane === filter.lane) && (filter.state === null || job.state === filter.state);
}

/** Rows are sorted by id, descending: find one without scanning 100,000 of them. */
export function indexOfId(rows: JobSummary[], id: number): number {
  let lo = 0;
  let hi = rows.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const at = rows[mid]!.id;
    if (at === id) return mid;
    if (at > id) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/**
 * Applies a frame's worth of job events, all newer than what the rows reflect (the caller drops
 * older ones by seq): updates rows in place, puts new matching jobs on top.
 */
export function applyJobEvents(state: JobsState, jobs: JobSummary[]): Partial<JobsState> {
  if (jobs.length === 0) return {};
  let rows: JobSummary[] | null = null;
  const fresh: JobSummary[] = [];
  const newest = state.rows[0]?.id ?? 0;
  const listed = state.rows.length > 0 || state.nextBeforeId === null;
  for (const job of jobs) {
    const i = indexOfId(state.rows, job.id);
    if (i >= 0) {
      rows ??= state.rows.slice();
      rows[i] = job;
    } else if (job.id > newest && listed && matches(state.filter, job)) {
      fresh.push(job);
    }
  }
  const patch: Partial<JobsState> = {};
  if (fresh.length > 0) {
    const unique = new Map(fresh.map((j) => [j.id, j]));
    const top = [...unique.values()].sort((a, b) => b.id - a.id);
    let next = top.concat(rows ?? state.rows);
    if (next.length > LIVE_ROW_LIMIT) {
      next = next.slice(0, LIVE_ROW_LIMIT);
      patch.nextBeforeId = next[next.length - 1]!.id;
    }
    patch.rows = next;
  } else if (rows) {
    patch.rows = rows;
  }
  return patch;
}

/**
 * The open job's log once its state is known or changes: turned to stderr when the job turns out
 * to have failed, unless the person picked a stream themselves. The caller reads the new stream.
 */
export function logForState(log: LogView, state: JobState): LogView {
  const stream = preferredStream(state);
  return log.chosen || log.stream === stream || stream === 'stdout' ? log : { ...EMPTY_LOG, stream, loading: true };
}
