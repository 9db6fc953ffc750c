// The jobs list (newest first, paged with `beforeId`) and the one job open in the detail pane.
// Rows are only what has been scrolled into view so far; the total comes from the lanes' own
// counts, so 100,000 queued jobs cost one page of rows, not 100,000.
import { create } from 'zustand';
import type { Job, JobState, LogChunk } from '../../shared/model.js';

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
}

export interface JobsState {
  filter: JobFilter;
  rows: Job[];
  /** The engine's total for the filter when the first page loaded. */
  totalAtLoad: number;
  nextBeforeId: number | null;
  loading: boolean;
  error: string | null;
  selectedId: number | null;
  detail: Job | null;
  log: LogView;
  /** The engine's refusal of the last cancel / retry. */
  actionError: string | null;
}

export const EMPTY_LOG: LogView = { stream: 'stdout', text: '', nextOffset: 0, truncated: false, loading: false };

export const useJobs = create<JobsState>(() => ({
  filter: { lane: null, state: null },
  rows: [],
  totalAtLoad: 0,
  nextBeforeId: null,
  loading: false,
  error: null,
  selectedId: null,
  detail: null,
  log: EMPTY_LOG,
  actionError: null,
}));

/** Rows kept after live additions; older ones are paged in again on demand. */
const LIVE_ROW_LIMIT = 5_000;

export function matches(filter: JobFilter, job: Job): boolean {
  return (filter.lane === null || job.lane === filter.lane) && (filter.state === null || job.state === filter.state);
}

/** Rows are sorted by id, descending: find one without scanning 100,000 of them. */
export function indexOfId(rows: Job[], id: number): number {
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

/** How far a job has got: a later event never shows less (a retry restarts at attempt 0). */
function progress(job: Job): number {
  return job.attempts * 3 + (job.state === 'queued' ? 0 : job.state === 'running' ? 1 : 2);
}

/**
 * Applies a frame's worth of job events: updates rows in place, puts new matching jobs on top.
 * `onlyForward`: the events may be older than the rows (they crossed a page on the wire).
 */
export function applyJobEvents(state: JobsState, jobs: Job[], onlyForward = false): Partial<JobsState> {
  if (jobs.length === 0) return {};
  let rows: Job[] | null = null;
  const fresh: Job[] = [];
  const newest = state.rows[0]?.id ?? 0;
  const listed = state.rows.length > 0 || state.nextBeforeId === null;
  for (const job of jobs) {
    const i = indexOfId(state.rows, job.id);
    if (i >= 0) {
      if (onlyForward && progress(job) <= progress(state.rows[i]!)) continue;
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
  const selected = state.selectedId === null ? undefined : jobs.findLast((j) => j.id === state.selectedId);
  if (selected && !(onlyForward && state.detail && progress(selected) <= progress(state.detail))) patch.detail = selected;
  return patch;
}
