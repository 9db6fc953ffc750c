// The scale timeline: a chart per lane, and beside it the ledger of every start, stop and drain
// with its reason — the answer to "why did the fleet change?".
import { useEffect } from 'react';
import { loadTimeline } from '../actions';
import { formatClock, REASON_WORDS } from '../format';
import { useLanes } from '../stores/lanes';
import { useTimeline } from '../stores/timeline';
import { LaneChart } from './LaneChart';

export function TimelinePanel() {
  const loaded = useTimeline((s) => s.loaded);
  const error = useTimeline((s) => s.error);
  const series = useTimeline((s) => s.series);
  const order = useLanes((s) => s.order);
  const byName = useLanes((s) => s.byName);
  const ceiling = useLanes((s) => s.ceiling);

  useEffect(() => {
    void loadTimeline();
  }, []);

  if (!loaded) {
    return <p className="empty muted">{error ?? 'Loading the last hour…'}</p>;
  }
  return (
    <div className="timeline">
      <div className="charts" aria-label="Workers and waiting per lane, last hour">
        {order.map((name) => {
          const lane = byName[name];
          return lane ? <LaneChart key={name} lane={lane} points={series[name] ?? []} ceiling={ceiling} /> : null;
        })}
      </div>
      <Ledger />
    </div>
  );
}

function Ledger() {
  const ledger = useTimeline((s) => s.ledger);
  return (
    <section className="ledger" aria-labelledby="ledger-title">
      <h3 id="ledger-title">Why the fleet changed</h3>
      {ledger.length === 0 ? (
        <p className="empty muted">No workers started or stopped yet. They start when jobs arrive and stop when a lane goes quiet.</p>
      ) : (
        <ol className="ledger-list" data-testid="ledger">
          {ledger.map((e) => (
            <li key={e.id} className={`ledger-item ledger-${e.reason}`}>
              <time dateTime={new Date(e.at).toISOString()}>{formatClock(e.at)}</time>
              <span className="ledger-lane">{e.lane}</span>
              <span className="ledger-move" aria-label={`from ${e.from} to ${e.to} workers`}>
                {e.from} → {e.to}
              </span>
              <span className="ledger-reason">{REASON_WORDS[e.reason] ?? e.reason}</span>
              {e.detail && <span className="ledger-detail">{e.detail}</span>}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
