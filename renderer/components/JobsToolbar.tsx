// Above the jobs: filters by lane and state, and how many jobs match. It sits in the tab bar, so
// the list keeps the height; search and bulk actions join it here. The counts come from the lanes'
// maintained totals, so they stay exact and live without re-querying.
import { useShallow } from 'zustand/react/shallow';
import { JOB_STATES, type JobState, type LaneStatus } from '../../shared/model';
import { setJobFilter } from '../actions';
import { formatCount, plural, STATE_WORDS } from '../format';
import { useJobs, type JobFilter } from '../stores/jobs';
import { useLanes } from '../stores/lanes';

export function JobsToolbar() {
  const filter = useJobs((s) => s.filter);
  const order = useLanes((s) => s.order);
  const counts = useLanes(useShallow((s) => countByState(filter, s.order.map((n) => s.byName[n]!))));
  const total = filter.state ? counts[filter.state] : counts.all;

  return (
    <div className="toolbar" role="toolbar" aria-label="Filter jobs" aria-controls="panel-jobs">
      <span className="field">
        <label htmlFor="filter-lane">Lane</label>
        <select id="filter-lane" value={filter.lane ?? ''} onChange={(e) => void setJobFilter({ lane: e.target.value || null })}>
          <option value="">All lanes</option>
          {order.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </span>
      <span className="field">
        <label htmlFor="filter-state">State</label>
        <select id="filter-state" value={filter.state ?? ''} onChange={(e) => void setJobFilter({ state: (e.target.value || null) as JobState | null })}>
          <option value="">Any state ({formatCount(counts.all)})</option>
          {JOB_STATES.map((st) => (
            <option key={st} value={st}>
              {STATE_WORDS[st]} ({formatCount(counts[st])})
            </option>
          ))}
        </select>
      </span>
      <span className="toolbar-count" aria-live="polite" data-testid="job-count">
        {plural(total, 'job')}
      </span>
    </div>
  );
}

type Counts = Record<JobState | 'all', number>;

/** Totals for the filter from the lanes' own counts (waiting is the queued count). */
function countByState(filter: JobFilter, lanes: LaneStatus[]): Counts {
  const c: Counts = { all: 0, queued: 0, running: 0, succeeded: 0, failed: 0, cancelled: 0 };
  for (const l of lanes) {
    if (filter.lane !== null && l.name !== filter.lane) continue;
    c.queued += l.waiting;
    c.running += l.running;
    c.succeeded += l.succeeded;
    c.failed += l.failed;
    c.cancelled += l.cancelled;
  }
  c.all = c.queued + c.running + c.succeeded + c.failed + c.cancelled;
  return c;
}
