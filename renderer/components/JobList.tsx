// The jobs list, virtualized: only the rows on screen exist in the page, and the next pages are
// asked for (`beforeId` newest first, `afterId` oldest first) as the end comes into view. 100,000
// queued jobs cost what 40 do. Running jobs' "Took" ticks from one clock for the whole list, which
// runs only while such a row is on screen. Each row has a box to tick it for a bulk cancel or retry.
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useLayoutEffect, useRef, type KeyboardEvent } from 'react';
import type { JobSummary } from '../../shared/model';
import { selectJob, setJobFilter } from '../actions';
import { clearChecked, toggleChecked } from '../commands';
import { loadMoreJobs } from '../live';
import { formatClock, STATE_WORDS } from '../format';
import { badgeOf, isCancelling, tookText } from '../job-words';
import { indexOfId, NO_FILTER, useJobs } from '../stores/jobs';
import { openAddJob } from './AddJobDialog';
import { useSecondClock } from '../stores/clock';
import { JobProgress } from './JobProgress';

const ROW_PX = 30;
/** Ask for the next page while this many loaded rows are still below the view. */
const PREFETCH_ROWS = 60;

export function JobList() {
  const rows = useJobs((s) => s.rows);
  const more = useJobs((s) => s.next !== null);
  const checked = useJobs((s) => s.checked);
  const loading = useJobs((s) => s.loading);
  const error = useJobs((s) => s.error);
  const filter = useJobs((s) => s.filter);
  const selectedId = useJobs((s) => s.selectedId);
  const cursorId = useJobs((s) => s.cursorId);
  const cancelling = useJobs((s) => s.cancelling);
  const scroller = useRef<HTMLDivElement>(null);

  const count = rows.length + (more ? 1 : 0);
  const virtual = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_PX,
    overscan: 12,
    useFlushSync: false,
  });
  const items = virtual.getVirtualItems();
  const lastIndex = items[items.length - 1]?.index ?? 0;
  const now = useSecondClock(items.some((item) => rows[item.index]?.state === 'running'));

  useEffect(() => {
    if (more && !loading && lastIndex >= rows.length - PREFETCH_ROWS) void loadMoreJobs();
  }, [more, loading, lastIndex, rows.length]);

  // A new filter starts at the top.
  useEffect(() => {
    scroller.current?.scrollTo({ top: 0 });
  }, [filter]);

  // New jobs arrive on top. A reader at the top sees them come in; a reader further down keeps
  // their place instead of watching the rows slide away.
  const topId = useRef<number | null>(null);
  useLayoutEffect(() => {
    const el = scroller.current;
    const before = topId.current;
    topId.current = rows[0]?.id ?? null;
    if (!el || before === null || el.scrollTop === 0 || filter.order !== 'newest') return;
    const shift = indexOfId(rows, before);
    if (shift > 0) el.scrollTop += shift * ROW_PX;
  }, [rows, filter.order]);

  const onKey = (e: KeyboardEvent) => {
    const at = cursorId === null ? -1 : indexOfId(rows, cursorId);
    const page = Math.max(1, Math.floor((scroller.current?.clientHeight ?? 300) / ROW_PX) - 1);
    const moves: Record<string, number> = {
      ArrowDown: at + 1,
      ArrowUp: at - 1,
      PageDown: at + page,
      PageUp: at - page,
      Home: 0,
      End: rows.length - 1,
    };
    const target = moves[e.key];
    if (target === undefined || rows.length === 0) return;
    e.preventDefault();
    const i = Math.min(rows.length - 1, Math.max(0, target));
    selectJob(rows[i]!.id);
    virtual.scrollToIndex(i, { align: 'auto' });
  };

  if (rows.length === 0 && !more) {
    return (
      <div className="job-list job-list-empty" data-testid="jobs-empty">
        {error ? <p className="empty error-text">{error}</p> : loading ? <p className="empty muted">Loading jobs…</p> : <EmptyJobs filtered={filter.lane !== null || filter.state !== null || (filter.dependents ?? null) !== null || filter.text.trim() !== ''} />}
      </div>
    );
  }

  return (
    <div
      className={`job-list${filter.lane !== null ? ' job-list-one-lane' : ''}`}
      ref={scroller}
      role="grid"
      aria-label={filter.order === 'newest' ? 'Jobs, newest first' : 'Jobs, oldest first'}
      aria-rowcount={count + 1}
      aria-activedescendant={cursorId !== null ? `job-row-${cursorId}` : undefined}
      tabIndex={0}
      onKeyDown={onKey}
      data-testid="job-list"
    >
      <div className="job-row job-head" role="row" aria-rowindex={1}>
        <span role="columnheader" className="job-id">
          <SelectAll rows={rows} checked={checked} />
          ID
        </span>
        <span role="columnheader">Lane</span>
        <span role="columnheader">Command</span>
        <span role="columnheader">State</span>
        <span role="columnheader">Tries</span>
        <span role="columnheader">Queued</span>
        <span role="columnheader">Took</span>
      </div>
      <div className="job-rows" style={{ height: virtual.getTotalSize() }} role="rowgroup">
        {items.map((item) => {
          const job = rows[item.index];
          if (!job) {
            return (
              <div key="more" className="job-row job-more" role="row" aria-rowindex={item.index + 2} style={rowStyle(item.start)}>
                <span role="gridcell">Loading older jobs…</span>
              </div>
            );
          }
          return (
            <JobRow
              key={job.id}
              job={job}
              index={item.index}
              start={item.start}
              selected={job.id === selectedId}
              cursor={job.id === cursorId}
              cancelling={isCancelling(job, cancelling)}
              checked={checked[job.id] === true}
              // Only running rows see the clock, so a tick re-renders them and no other.
              now={job.state === 'running' ? now : 0}
            />
          );
        })}
      </div>
    </div>
  );
}

const rowStyle = (start: number) => ({ transform: `translateY(${start}px)`, height: ROW_PX });

interface RowProps {
  job: JobSummary;
  index: number;
  start: number;
  selected: boolean;
  cursor: boolean;
  cancelling: boolean;
  checked: boolean;
  now: number;
}

const JobRow = memo(function JobRow({ job, index, start, selected, cursor, cancelling, checked, now }: RowProps) {
  return (
    <div
      id={`job-row-${job.id}`}
      className={`job-row${selected ? ' job-row-selected' : ''}${cursor ? ' job-row-cursor' : ''}`}
      role="row"
      aria-rowindex={index + 2}
      aria-selected={selected}
      style={rowStyle(start)}
      onClick={() => selectJob(job.id)}
      data-job-id={job.id}
    >
      <span role="gridcell" className="num job-id">
        <input
          type="checkbox"
          className="tick"
          aria-label={`Select job ${job.id}`}
          checked={checked}
          tabIndex={-1}
          onClick={(e) => e.stopPropagation()}
          onChange={() => toggleChecked(job.id)}
        />
        {job.id}
      </span>
      <span role="gridcell" className="ellipsis">
        {job.lane}
      </span>
      <span role="gridcell" className="job-command-cell" title={job.command}>
        <span className="mono ellipsis">{job.command}</span>
        {job.state === 'running' && job.progress && <JobProgress progress={job.progress} />}
      </span>
      <span role="gridcell">
        <JobBadge job={job} cancelling={cancelling} />
      </span>
      <span role="gridcell" className="num">
        {job.attempts}/{job.maxAttempts}
      </span>
      <span role="gridcell" className="num">
        {formatClock(job.createdAt)}
      </span>
      <span role="gridcell" className="num" data-testid="took">
        {tookText(job, now)}
      </span>
    </div>
  );
});

/** The state in a word, or what the job waits for (After 2 jobs, Scheduled), or Blocked for a dependent that never ran. */
export function JobBadge({ job, cancelling, testId }: { job: JobSummary; cancelling: boolean; testId?: string }) {
  const own = cancelling ? null : badgeOf(job);
  const tone = cancelling ? 'cancelling' : (own?.tone ?? job.state);
  return (
    <span className={`badge badge-${tone}`} title={own?.hint ?? job.error ?? undefined} data-testid={testId}>
      {cancelling ? 'Cancelling…' : (own?.word ?? STATE_WORDS[job.state])}
    </span>
  );
}

/** Ticks every row loaded so far (or clears them): what a bulk action by ids then acts on. */
function SelectAll({ rows, checked }: { rows: JobSummary[]; checked: Record<number, true> }) {
  const n = Object.keys(checked).length;
  const all = rows.length > 0 && n >= rows.length && rows.every((j) => checked[j.id]);
  return (
    <input
      type="checkbox"
      className="tick"
      aria-label={all ? 'Clear the selection' : 'Select every job shown'}
      checked={all}
      ref={(el) => {
        if (el) el.indeterminate = n > 0 && !all;
      }}
      onChange={() => {
        if (all || n > 0) clearChecked();
        else useJobs.setState({ checked: Object.fromEntries(rows.map((j) => [j.id, true as const])) });
      }}
    />
  );
}

function EmptyJobs({ filtered }: { filtered: boolean }) {
  if (filtered) {
    return (
      <p className="empty">
        No jobs match this filter.{' '}
        <button type="button" className="link-button" onClick={() => void setJobFilter({ ...NO_FILTER, order: useJobs.getState().filter.order })}>
          Show all jobs
        </button>
      </p>
    );
  }
  return (
    <p className="empty">
      No jobs yet.{' '}
      <button type="button" className="button button-small" onClick={() => openAddJob(null)}>
        Add a job…
      </button>{' '}
      <span className="muted">
        or from a terminal: <code>lanes add -- your-command</code>
      </span>
    </p>
  );
}
