// One lane on one line: its state (and, when it runs nothing, why), its workers, its cap and its
// numbers. Only when raising the cap would help right now does the row grow a second, slim line:
// the engine's nudge, with the one click that acts on it. A failed count opens those jobs.
import { dismissCapError, setCap, setJobFilter } from '../actions';
import { formatCount, formatDuration, formatRate, MOOD_WORDS } from '../format';
import { classHint, laneReason } from '../lane-words';
import { useLanes } from '../stores/lanes';
import { CapStepper } from './CapStepper';
import { useSecondClock } from '../stores/clock';
import { WorkerPips } from './WorkerPips';

export function LaneRow({ name }: { name: string }) {
  const lane = useLanes((s) => s.byName[name]);
  const ceiling = useLanes((s) => s.ceiling);
  const pending = useLanes((s) => s.pendingCap[name]);
  const capError = useLanes((s) => s.capError[name]);
  // Only a lane held back until a moment needs the clock, to drop its reason when that passes.
  const now = useSecondClock(lane?.startsBlockedUntil != null);
  if (!lane) return null;

  const cap = pending?.cap ?? lane.cap;
  const mood = MOOD_WORDS[lane.mood];
  const titleId = `lane-${name}`;
  // Once a raise is on its way the nudge has been answered; it comes back if the engine refuses.
  const nudge = lane.nudge && cap < lane.nudge.suggestedCap ? lane.nudge : null;
  // A pending cap above 0 is the answer to "cap 0": say nothing stale meanwhile.
  const reason = laneReason({ ...lane, cap }, now);

  return (
    <li className={`lane lane-${lane.mood}${nudge ? ' lane-nudged' : ''}`} aria-labelledby={titleId} data-lane={name}>
      <div className="lane-main">
        <div className="lane-id">
          <h3 id={titleId} className="lane-name" title={name}>
            {name}
          </h3>
          <span className="tag" title={classHint(lane)}>
            {lane.class}
          </span>
        </div>
        <div className="lane-state">
          <span className={`mood mood-${lane.mood}`} title={mood.hint} data-testid="mood">
            {mood.word}
          </span>
          {reason && (
            <span className="lane-reason" title={reason} data-testid="lane-reason">
              {reason}
            </span>
          )}
        </div>
        <div className="lane-workers">
          <WorkerPips busy={lane.busy} idle={lane.idle} draining={lane.draining} cap={cap} />
        </div>
        <div className="lane-cap">
          <CapStepper lane={name} value={cap} ceiling={ceiling} pending={pending !== undefined} onChange={(n) => void setCap(name, n)} />
        </div>
        <dl className="lane-stats">
          <div>
            <dt>Waiting</dt>
            <dd data-testid="waiting">{formatCount(lane.waiting)}</dd>
          </div>
          <div>
            <dt>Failed</dt>
            <dd data-testid="failed">
              {lane.failed > 0 ? (
                <button type="button" className="link-button failed-link" title={`Show the failed jobs of ${name}`} onClick={() => void setJobFilter({ lane: name, state: 'failed' })}>
                  {formatCount(lane.failed)}
                </button>
              ) : (
                '0'
              )}
            </dd>
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
        <div className="lane-line lane-error" role="alert">
          <span className="lane-line-text">{capError}</span>
          <button type="button" className="link-button" onClick={() => dismissCapError(name)}>
            Dismiss
          </button>
        </div>
      )}
      {nudge && (
        <div className="lane-line nudge" role="status" data-testid="nudge">
          <span className="nudge-icon" aria-hidden="true">
            ↑
          </span>
          <span className="lane-line-text">{nudge.text}</span>
          <button type="button" className="button button-primary button-small" onClick={() => void setCap(name, nudge.suggestedCap)}>
            Raise to {nudge.suggestedCap}
          </button>
        </div>
      )}
    </li>
  );
}
