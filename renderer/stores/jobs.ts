// The jobs list (newest first, paged with `beforeId`, or oldest first, paged with `afterId`) and
// the one job open in the detail pane. Rows are only what has been scrolled into view so far; the
// total comes from the lanes' own counts, so 100,000 queued jobs cost one page of rows, not 100,000.
import { create } from 'zustand';
import type { Job, JobState, JobSummary, LogChunk } from '../../shared/model.js';
import { preferredStream } from '../job-words.js';
import { blockedBy } from '../../shared/dependencies.js';

export type JobOrder = 'newest' | 'oldest';

export interface JobFilter {
  lane: string | null;
  state: JobState | null;
  /** Only jobs whose command holds this text (any case); '' for all. */
  text: string;
  /** Oldest first puts the running and the longest-waiting jobs on top during a backlog. */
  order: JobOrder;
  /** Dependents only: waiting for the jobs they run after, or blocked (never ran); null: by state alone. */
  dependents?: 'after' | 'blocked' | null;
}

export const NO_FILTER: JobFilter = { lane: null, state: null, text: '', order: 'newest' };

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
  /** Where the next page starts, in the list's order (`beforeId` or `afterId`); null at the end. */
  next: number | null;
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
  /** Rows ticked for a bulk cancel or retry. */
  checked: Record<number, true>;
}

export const EMPTY_LOG: LogView = { stream: 'all', text: '', nextOffset: 0, truncated: false, loading: false, chosen: false };

export const useJobs = create<JobsState>(() => ({
  seq: 0,
  filter: NO_FILTER,
  rows: [],
  next: null,
  loading: false,
  error: null,
  selectedId: null,
  cursorId: null,
  detail: null,
  detailSeq: 0,
  log: EMPTY_LOG,
  actionError: null,
  cancelling: {},
  checked: {},
}));

/** Rows kept after live additions; older ones are paged in again on demand. */
const LIVE_ROW_LIMIT = 5_000;

/** The search box's `label:nightly` is the label filter (as `lanes jobs --label nightly`); null for a plain search. */
export function labelOf(text: string): string | null {
  return /^label:(\S+)$/.exec(text.trim())?.[1] ?? null;
}

export function matches(filter: JobFilter, job: JobSummary): boolean {
  const label = labelOf(filter.text);
  return (
    (filter.lane === null || job.lane === filter.lane) &&
    (filter.state === null || job.state === filter.state) &&
    dependentsMatch(filter, job) &&
    (label !== null
      ? (job.labels ?? []).includes(label)
      : filter.text.trim() === '' || job.command.toLowerCase().includes(filter.text.trim().toLowerCase()))
  );
}

/** Failed means ran and failed: a dependent that never ran shows under Blocked, as it is counted. */
function dependentsMatch(filter: JobFilter, job: JobSummary): boolean {
  const blocked = blockedBy(job) !== null;
  if (filter.dependents === 'after') return job.state === 'queued' && job.waitingFor !== undefined;
  if (filter.dependents === 'blocked') return blocked;
  return filter.state !== 'failed' || !blocked;
}

/** Rows are sorted by id, one way or the other: find one without scanning 100,000 of them. */
export function indexOfId(rows: JobSummary[], id: number): number {
  // The list's direction shows in its ends; one row (or none) reads the same either way.
  const down = rows.length < 2 || rows[0]!.id > rows[rows.length - 1]!.id;
  let lo = 0;
  let hi = rows.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const at = rows[mid]!.id;
    if (at === id) return mid;
    if (at > id === down) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/**
 * Applies a frame's worth of job events, all newer than what the rows reflect (the caller drops
 * older ones by seq): updates rows in place, and puts new matching jobs where their order puts
 * them — on top, newest first; at the bottom, oldest first, once the list has reached its end
 * (before that, the next page brings them).
 */
export function applyJobEvents(state: JobsState, jobs: JobSummary[]): Partial<JobsState> {
  if (jobs.length === 0) return {};
  const oldestFirst = state.filter.order === 'oldest';
  let rows: JobSummary[] | null = null;
  const fresh: JobSummary[] = [];
  const newest = (oldestFirst ? state.rows[state.rows.length - 1]?.id : state.rows[0]?.id) ?? 0;
  const listed = oldestFirst ? state.next === null : state.rows.length > 0 || state.next === null;
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
    const unique = [...new Map(fresh.map((j) => [j.id, j])).values()];
    const base = rows ?? state.rows;
    if (oldestFirst) {
      // A list this long was not read to its end by a person: the rest comes as pages again.
      const next = base.concat(unique.sort((a, b) => a.id - b.id));
      if (next.length > LIVE_ROW_LIMIT) {
        patch.rows = next.slice(0, LIVE_ROW_LIMIT);
        patch.next = patch.rows[patch.rows.length - 1]!.id;
      } else patch.rows = next;
    } else {
      let next = unique.sort((a, b) => b.id - a.id).concat(base);
      if (next.length > LIVE_ROW_LIMIT) {
        next = next.slice(0, LIVE_ROW_LIMIT);
        patch.next = next[next.length - 1]!.id;
      }
      patch.rows = next;
    }
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
  return log.chosen || log.stream === stream || stream !== 'stderr' ? log : { ...EMPTY_LOG, stream, loading: true };
}
