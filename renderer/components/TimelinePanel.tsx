// The scale timeline: a chart per lane, and beside it the ledger of every start, stop and drain
// with its reason — the answer to "why did the fleet change?" — and the engine's own starts and
// stops, so "0 → 2" twice reads as two runs of the engine.
import { useEffect } from 'react';
import { loadTimeline } from '../live';
import { formatClock, ledgerLane, reasonWords } from '../format';
import { useLanes } from '../stores/lanes';
import { useTimeline } from '../stores/timeline';
import { TIMELINE_SPAN_MS } from '../../shared/limits';
import type { TimelinePoint } from '../../shared/model';
import { LaneChart } from './LaneChart';
import { useNow } from './useNow';

export function TimelinePanel() {
  const loaded = useTimeline((s) => s.loaded);
  const error = useTimeline((s) => s.error);
  const series = useTimeline((s) => s.series);
  const order = useLanes((s) => s.order);
  const byName = useLanes((s) => s.byName);
  const ceiling = useLanes((s) => s.ceiling);
  // The right edge is "now" even when nothing happens.
  const now = useNow(5_000);

  useEffect(() => {
    void loadTimeline();
  }, []);

  if (!loaded) {
    return <p className="empty muted">{error ?? 'Loading the last hour…'}</p>;
  }
  const from = chartStart(series, now);
  const span = now - from >= TIMELINE_SPAN_MS - 1_000 ? 'the last hour' : `since ${formatClock(from)}`;
  return (
    <div className="timeline">
      {/* Scrollable panels take focus, so arrow keys and Page Up/Down scroll them (WCAG 2.1.1). */}
      <section className="charts" aria-labelledby="charts-title" tabIndex={0} data-scroll-panel>
        <h3 id="charts-title" className="charts-title">
          Workers and waiting, {span}
        </h3>
        {order.map((name) => {
          const lane = byName[name];
          if (!lane) return null;
          const points = (series[name] ?? []).filter((p) => p.at >= from);
          // A lane that did nothing gets a line, not an empty chart.
          if (lane.workers === 0 && lane.waiting === 0 && points.every((p) => p.workers === 0 && p.waiting === 0)) {
            return (
              <p key={name} className="chart-quiet" data-lane={name}>
                <strong>{name}</strong> <span className="muted">no workers and nothing waiting {span === 'the last hour' ? 'in the last hour' : span}</span>
              </p>
            );
          }
          return <LaneChart key={name} lane={lane} points={points} ceiling={ceiling} from={from} />;
        })}
      </section>
      <Ledger />
    </div>
  );
}

/** Shortest useful span: an engine that just started should not be a sliver at the right edge. */
const MIN_SPAN_MS = 60_000;

/** The left edge shared by every chart: the oldest sample, within the last hour. */
function chartStart(series: Record<string, TimelinePoint[]>, now: number): number {
  let oldest = now - MIN_SPAN_MS;
  for (const points of Object.values(series)) if (points[0] && points[0].at < oldest) oldest = points[0].at;
  return Math.max(now - TIMELINE_SPAN_MS, oldest);
}

function Ledger() {
  const ledger = useTimeline((s) => s.ledger);
  return (
    <section className="ledger" aria-labelledby="ledger-title" tabIndex={0} data-scroll-panel>
      <h3 id="ledger-title">Why the fleet changed</h3>
      {ledger.length === 0 ? (
        <p className="empty muted">No workers started or stopped yet. They start when jobs arrive and stop when a lane goes quiet.</p>
      ) : (
        <ol className="ledger-list" data-testid="ledger">
          {ledger.map((e) => (
            <li key={e.id} className={`ledger-item ledger-${e.reason}`}>
              <time dateTime={new Date(e.at).toISOString()}>{formatClock(e.at)}</time>
              <span className="ledger-lane">{ledgerLane(e)}</span>
              {e.lane === '*' ? (
                <span className="ledger-move" />
              ) : (
                <span className="ledger-move" aria-label={`from ${e.from} to ${e.to} workers`}>
                  {e.from} → {e.to}
                </span>
              )}
              <span className="ledger-reason">{reasonWords(e)}</span>
              {e.detail && <span className="ledger-detail">{e.detail}</span>}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
