// The lanes, one compact line each under one row of column labels, so six lanes with three nudges
// leave most of the window to the jobs. The section folds to a one-line summary (remembered), for
// a person who has set their caps and watches jobs. Rows subscribe to their own lane only, so a busy
// lane redraws itself and nothing else.
import { lanesSummary } from '../lane-words';
import { useLanes } from '../stores/lanes';
import { toggleLanes, usePrefs } from '../stores/prefs';
import { LaneRow } from './LaneRow';
import { openAddLane } from './LaneDialogs';

export function LanesPanel() {
  const order = useLanes((s) => s.order);
  const collapsed = usePrefs((s) => s.lanesCollapsed);
  const summary = useLanes((s) => lanesSummary(s.order.map((n) => s.byName[n]!)));

  return (
    <section className={`lanes${collapsed ? ' lanes-collapsed' : ''}`} aria-labelledby="lanes-title">
      <div className="lanes-head">
        <h2 id="lanes-title" className="lanes-title">
          <button type="button" className="disclosure" aria-expanded={!collapsed} aria-controls="lane-list" onClick={toggleLanes} title={collapsed ? 'Show the lanes' : 'Fold the lanes away'}>
            <span className="disclosure-mark" aria-hidden="true" />
            Lanes
          </button>
        </h2>
        <p className="lanes-summary" data-testid="lanes-summary">
          {summary}
        </p>
        {!collapsed && order.length > 0 && (
          <div className="lane-columns" aria-hidden="true">
            <span>State</span>
            <span title="Filled: busy · ring: idle · striped: finishing, then stopping · dashed: allowed by the cap">Workers</span>
            <span>Cap</span>
            <span>Waiting</span>
            <span>Failed</span>
            <span>Done / min</span>
            <span title="How long the oldest job still waiting has waited">Longest wait</span>
          </div>
        )}
      </div>
      {collapsed ? null : order.length === 0 ? (
        <p className="empty">
          No lanes.{' '}
          <button type="button" className="link-button" onClick={openAddLane}>
            Add one
          </button>
          , or with <code>lanes lane add NAME</code>.
        </p>
      ) : (
        <ul className="lane-list" id="lane-list">
          {order.map((name) => (
            <LaneRow key={name} name={name} />
          ))}
        </ul>
      )}
    </section>
  );
}
