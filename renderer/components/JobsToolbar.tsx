// Above the jobs: filters by lane and state, a text search, the order (newest or oldest first),
// how many jobs match, "Retry all failed" and "Add job". It sits in the tab bar, so the list
// keeps the height. The counts come from the lanes' maintained totals, so they stay exact and
// live without re-querying; a text search counts what it has found so far.
import { useEffect, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { JOB_STATES, type JobState, type LaneStatus } from '../../shared/model';
import { SEARCH_MAX_CHARS } from '../../shared/limits';
import { setJobFilter } from '../actions';
import { retryMany } from '../commands';
import { formatCount, plural, STATE_WORDS } from '../format';
import { useJobs, type JobFilter, type JobOrder } from '../stores/jobs';
import { useLanes } from '../stores/lanes';
import { openAddJob } from './AddJobDialog';

/** Typing pauses this long before the list is asked again. */
const SEARCH_DELAY_MS = 250;

export function JobsToolbar() {
  const filter = useJobs((s) => s.filter);
  const found = useJobs((s) => `${formatCount(s.rows.length)}${s.next !== null ? '+' : ''}`);
  const order = useLanes((s) => s.order);
  const counts = useLanes(useShallow((s) => countByState(filter, s.order.map((n) => s.byName[n]!))));
  const total = filter.dependents ? counts[filter.dependents] : filter.state ? counts[filter.state] : counts.all;
  const searching = filter.text.trim() !== '';

  return (
    <div className="toolbar" role="toolbar" aria-label="Filter jobs" aria-controls="panel-jobs">
      <select id="filter-lane" aria-label="Lane" value={filter.lane ?? ''} onChange={(e) => void setJobFilter({ lane: e.target.value || null })}>
        <option value="">All lanes</option>
        {order.map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
      </select>
      <select id="filter-state" aria-label="State" value={filter.dependents ?? filter.state ?? ''} onChange={(e) => void setJobFilter(showing(e.target.value))}>
        <option value="">Any state ({formatCount(counts.all)})</option>
        {JOB_STATES.map((st) => (
          <option key={st} value={st}>
            {STATE_WORDS[st]} ({st === 'succeeded' ? `${formatCount(counts[st])} kept` : formatCount(counts[st])})
          </option>
        ))}
        <option value="after">After other jobs ({formatCount(counts.after)})</option>
        <option value="blocked">Blocked: did not run ({formatCount(counts.blocked)})</option>
      </select>
      <SearchBox text={filter.text} />
      <OrderToggle order={filter.order} />
      <span className="toolbar-count" aria-live="polite" data-testid="job-count">
        {searching ? `${found} found` : plural(total, 'job')}
      </span>
      {counts.failed + counts.blocked > 0 && (
        // The request takes every failed job, the blocked with them (a chain retried together runs
        // in order), so the count it shows is both: the number it queues, or says it left as they were.
        <button
          type="button"
          className="button button-small"
          title={`Queue every failed job${filter.lane ? ` of ${filter.lane}` : ''} to run again${counts.blocked > 0 ? `, with the ${plural(counts.blocked, 'job')} that did not run for them` : ''}`}
          onClick={() => void retryMany({ ...(filter.lane ? { lane: filter.lane } : {}), state: 'failed' })}
        >
          Retry all failed ({formatCount(counts.failed)}
          {counts.blocked > 0 ? ` + ${formatCount(counts.blocked)} blocked` : ''})
        </button>
      )}
      <button type="button" className="button button-small" onClick={() => openAddJob(filter.lane)}>
        Add job…
      </button>
    </div>
  );
}

/** The search box: the list follows as the person types, a moment after they stop. */
function SearchBox({ text }: { text: string }) {
  const [draft, setDraft] = useState(text);
  // A filter set elsewhere (say, a cleared search) shows here.
  useEffect(() => setDraft(text), [text]);
  useEffect(() => {
    if (draft === text) return;
    const timer = setTimeout(() => void setJobFilter({ text: draft }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [draft, text]);
  return (
    <input
      className="search"
      type="search"
      aria-label="Search commands"
      placeholder="Search"
      title="Search the commands; label:NAME shows the jobs with that label"
      maxLength={SEARCH_MAX_CHARS}
      value={draft}
      onChange={(e) => setDraft(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') void setJobFilter({ text: draft });
      }}
    />
  );
}

const ORDERS: { id: JobOrder; label: string; hint: string }[] = [
  { id: 'newest', label: 'Newest', hint: 'Newest first: what was just added on top' },
  { id: 'oldest', label: 'Oldest', hint: 'Oldest first: what is running and what has waited longest on top' },
];

function OrderToggle({ order }: { order: JobOrder }) {
  return (
    <div className="segmented" role="radiogroup" aria-label="Order">
      {ORDERS.map((o) => (
        <button key={o.id} type="button" role="radio" aria-checked={order === o.id} className="segment" title={o.hint} onClick={() => void setJobFilter({ order: o.id })}>
          {o.label}
        </button>
      ))}
    </div>
  );
}

type Counts = Record<JobState | 'all' | 'after' | 'blocked', number>;

/** The state list's choice as a filter: a state, or the dependents waiting (After) or that never ran (Blocked). */
const showing = (value: string): Partial<JobFilter> =>
  value === 'after' || value === 'blocked' ? { state: null, dependents: value } : { state: (value || null) as JobState | null, dependents: null };

/** Totals for the filter from the lanes' own counts (waiting is the queued count; failed leaves out the blocked, counted apart). */
export function countByState(filter: Pick<JobFilter, 'lane'>, lanes: LaneStatus[]): Counts {
  const c: Counts = { all: 0, queued: 0, running: 0, succeeded: 0, failed: 0, cancelled: 0, after: 0, blocked: 0 };
  for (const l of lanes) {
    if (filter.lane !== null && l.name !== filter.lane) continue;
    c.queued += l.waiting + l.delayed + l.waitingForJobs + l.scheduled;
    c.running += l.running;
    c.succeeded += l.succeeded;
    c.failed += l.failed;
    c.cancelled += l.cancelled;
    c.after += l.waitingForJobs;
    c.blocked += l.blocked ?? 0;
  }
  c.all = c.queued + c.running + c.succeeded + c.failed + c.cancelled + c.blocked;
  return c;
}
