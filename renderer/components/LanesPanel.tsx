// One row per lane. The rows subscribe to their own lane only, so a busy lane redraws itself and
// nothing else.
import { useLanes } from '../stores/lanes';
import { LaneRow } from './LaneRow';

export function LanesPanel() {
  const order = useLanes((s) => s.order);
  return (
    <section className="lanes" aria-labelledby="lanes-title">
      <div className="section-head">
        <h2 id="lanes-title">Lanes</h2>
        <PipLegend />
      </div>
      {order.length === 0 ? (
        <p className="empty">
          No lanes. Add one with <code>lanes lane add NAME</code>.
        </p>
      ) : (
        <ul className="lane-list">
          {order.map((name) => (
            <LaneRow key={name} name={name} />
          ))}
        </ul>
      )}
    </section>
  );
}

function PipLegend() {
  return (
    <p className="legend" aria-hidden="true">
      <span className="pip pip-busy" /> busy
      <span className="pip pip-idle" /> idle
      <span className="pip pip-draining" /> finishing, then stopping
      <span className="pip pip-free" /> allowed by the cap
    </p>
  );
}
