// One lane: its cap, its workers, how much is waiting and how fast it goes, and — only when raising
// the cap would help right now — the nudge, in this row, with the one click that acts on it.
import { dismissCapError, setCap } from '../actions';
import { formatCount, formatDuration, formatRate, MOOD_WORDS } from '../format';
import { useLanes } from '../stores/lanes';
import { CapStepper } from './CapStepper';
import { WorkerPips } from './WorkerPips';

export function LaneRow({ name }: { name: string }) {
  const lane = useLanes((s) => s.byName[name]);
  const ceiling = useLanes((s) => s.ceiling);
  const pending = useLanes((s) => s.pendingCap[name]);
  const capError = useLanes((s) => s.capError[name]);
  if (!lane) return null;

  const cap = pending?.cap ?? lane.cap;
  const mood = MOOD_WORDS[lane.mood];
  const titleId = `lane-${name}`;
  // Once a raise is on its way the nudge has been answered; it comes back if the engine refuses.
  const nudge = lane.nudge && cap < lane.nudge.suggestedCap ? lane.nudge : null;

  return (
    <li className={`lane lane-${lane.mood}`} aria-labelledby={titleId} data-lane={name}>
      <div className="lane-main">
        <div className="lane-id">
          <h3 id={titleId} className="lane-name">
            {name}
          </h3>
          <span className="tag" title={lane.class === 'ml' ? 'Model lane: workers load a model, so they are given back slowly.' : 'CPU lane'}>
            {lane.class}
          </span>
        </div>
        <div className="lane-activity">
          <span className={`mood mood-${lane.mood}`} title={mood.hint} data-testid="mood">
            {mood.word}
          </span>
          <WorkerPips busy={lane.busy} idle={lane.idle} draining={lane.draining} cap={cap} />
        </div>
        <div className="lane-cap">
          <span className="stat-label" aria-hidden="true">
            Cap
          </span>
          <CapStepper lane={name} value={cap} ceiling={ceiling} pending={pending !== undefined} onChange={(n) => void setCap(name, n)} />
        </div>
        <dl className="lane-stats">
          <div>
            <dt>Waiting</dt>
            <dd data-testid="waiting">{formatCount(lane.waiting)}</dd>
          </div>
          <div>
            <dt>Done / min</dt>
            <dd>{formatRate(lane.throughputPerMin)}</dd>
          </div>
          <div>
            <dt>Median wait</dt>
            <dd>{formatDuration(lane.medianWaitMs)}</dd>
          </div>
        </dl>
      </div>
      {capError && (
        <div className="lane-note lane-error" role="alert">
          <span>{capError}</span>
          <button type="button" className="link-button" onClick={() => dismissCapError(name)}>
            Dismiss
          </button>
        </div>
      )}
      {nudge && (
        <div className="lane-note nudge" role="status" data-testid="nudge">
          <span className="nudge-icon" aria-hidden="true">
            ↑
          </span>
          <span className="nudge-text">{nudge.text}</span>
          <button type="button" className="button button-primary" onClick={() => void setCap(name, nudge.suggestedCap)}>
            Raise to {nudge.suggestedCap}
          </button>
        </div>
      )}
    </li>
  );
}
