// One lane on one line: its state (and, when it runs nothing, why; when it has a pace, when what
// it holds will be done), its workers, its cap and its numbers. Only when raising the cap would
// help right now does the row grow a second, slim line: the engine's nudge (with what the higher
// cap buys, set apart), the one click that acts on it, and "Not now" for a person who has decided
// otherwise; a nudge so quieted says it rests, until when and why. When the machine rather than the cap holds the lane back (its memory, the battery…),
// a calm note line says so in the engine's words. A failed count opens those jobs.
import { dismissCapError, setCap, setJobFilter } from '../actions';
import { snoozeNudge } from '../commands';
import { DEFAULT_LANE, NUDGE_DISMISS_SECONDS } from '../../shared/limits';
import type { Nudge } from '../../shared/model';
import { formatCount, MOOD_WORDS } from '../format';
import { classHint, doneRate, laneEta, laneLimit, laneReason, laneWait, nudgeParts, workerMemory } from '../lane-words';
import { useLanes } from '../stores/lanes';
import { CapStepper } from './CapStepper';
import { useSecondClock } from '../stores/clock';
import { WorkerPips } from './WorkerPips';
import { openRemoveLane } from './LaneDialogs';
import { LanePause } from './PauseControl';
import { nudgeRestWords } from '../../shared/nudge-rest';

/** "Snooze for a day", as the tray's: as long as a dismissed nudge stays quiet, so both say the same. */
const SNOOZE_S = NUDGE_DISMISS_SECONDS;

export function LaneRow({ name }: { name: string }) {
  const lane = useLanes((s) => s.byName[name]);
  // The cap is the person's lasting setting: it is bounded by what the cores allow, not by what the
  // machine allows for now (on battery a cap of 7 stays 7, and counts again once plugged in).
  const capMost = useLanes((s) => s.machine?.coreCeiling ?? s.ceiling);
  const pending = useLanes((s) => s.pendingCap[name]);
  const capError = useLanes((s) => s.capError[name]);
  const paused = useLanes((s) => s.paused);
  // A lane held back until a moment needs the clock to drop its reason when that passes, and a
  // lane with jobs waiting to show the oldest one's wait growing.
  const now = useSecondClock(lane?.startsBlockedUntil != null || lane?.oldestQueuedAt != null);
  if (!lane) return null;

  const cap = pending?.cap ?? lane.cap;
  const mood = MOOD_WORDS[lane.mood];
  const titleId = `lane-${name}`;
  // Once a raise is on its way the nudge has been answered; it comes back if the engine refuses.
  const nudge = lane.nudge && cap < lane.nudge.suggestedCap ? lane.nudge : null;
  // A pending cap above 0 is the answer to "cap 0": say nothing stale meanwhile.
  const reason = laneReason({ ...lane, cap }, now, paused);
  // Paused, nothing starts: a time to clear at the pace before the pause would mislead.
  const eta = paused ? null : laneEta(lane);
  const wait = laneWait(lane, now);
  const rate = doneRate(lane);
  // A lane held by the machine says so once nothing more pressing (a pause, a failing command) does.
  const limit = reason ? null : laneLimit(lane);
  const memory = workerMemory(lane);
  // A nudge a person quieted says it rests, until when and why, where it would otherwise speak.
  const rest = !nudge && !paused && lane.nudgeRest ? nudgeRestWords(lane.nudgeRest) : null;

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
          <LanePause lane={name} />
          {name !== DEFAULT_LANE && (
            <button type="button" className="lane-remove" aria-label={`Remove lane ${name}`} title={`Remove lane ${name}`} onClick={() => openRemoveLane(name)}>
              ✕
            </button>
          )}
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
          {eta && (
            <span className="lane-eta" title="At the pace of the last 30 seconds" data-testid="lane-eta">
              {eta}
            </span>
          )}
        </div>
        <div className="lane-workers">
          <WorkerPips busy={lane.busy} idle={lane.idle} draining={lane.draining} cap={cap} memory={memory} />
        </div>
        <div className="lane-cap">
          <CapStepper lane={name} value={cap} ceiling={capMost} pending={pending !== undefined} onChange={(n) => void setCap(name, n)} />
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
                <button type="button" className="link-button failed-link" title={`Show the failed jobs of ${name}`} onClick={() => void setJobFilter({ lane: name, state: 'failed', dependents: null })}>
                  {formatCount(lane.failed)}
                </button>
              ) : (
                '0'
              )}
              {(lane.blocked ?? 0) > 0 && (
                <button type="button" className="link-button blocked-link" title={`Show the jobs of ${name} that did not run: a job they run after did not succeed`} onClick={() => void setJobFilter({ lane: name, state: null, dependents: 'blocked' })}>
                  +{formatCount(lane.blocked!)} blocked
                </button>
              )}
            </dd>
          </div>
          <div>
            <dt>Done / min</dt>
            <dd title={rate.hint} data-testid="done-rate">
              {rate.text}
            </dd>
          </div>
          <div>
            <dt>Longest wait</dt>
            <dd title={wait.hint} data-testid="wait">
              {wait.text}
            </dd>
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
      {limit && (
        <div className="lane-line lane-limit" data-testid="lane-limit" title={memory ? `${limit}. Measured: ${memory}.` : limit}>
          <span className="limit-icon" aria-hidden="true">
            i
          </span>
          <span className="lane-line-text">
            <span className="visually-hidden">Held back by the machine: </span>
            {limit}
          </span>
        </div>
      )}
      {nudge && (
        <div className="lane-line nudge" role="status" data-testid="nudge">
          <span className="nudge-icon" aria-hidden="true">
            ↑
          </span>
          {/* The engine's words say what the higher cap buys, once there is a pace to go by. */}
          <NudgeText nudge={nudge} cap={lane.cap} />
          <button type="button" className="button button-primary button-small" onClick={() => void setCap(name, nudge.suggestedCap)}>
            Raise to {nudge.suggestedCap}
          </button>
          <button
            type="button"
            className="button button-small button-quiet"
            title="Quiet this nudge until the backlog grows a good deal"
            onClick={() => void snoozeNudge(name)}
          >
            Not now
          </button>
          <button type="button" className="button button-small button-quiet" title="Quiet this nudge for a day" onClick={() => void snoozeNudge(name, SNOOZE_S)}>
            Snooze for a day
          </button>
        </div>
      )}
      {rest && (
        <div className="lane-line lane-rest" data-testid="nudge-rest">
          <span className="lane-line-text">{rest.charAt(0).toUpperCase() + rest.slice(1)}.</span>
        </div>
      )}
    </li>
  );
}

function NudgeText({ nudge, cap }: { nudge: Nudge; cap: number }) {
  const { before, estimate, after } = nudgeParts(nudge, cap);
  return (
    <span className="lane-line-text">
      {before}
      {estimate && (
        <strong className="nudge-estimate" data-testid="nudge-estimate">
          {estimate}
        </strong>
      )}
      {after}
    </span>
  );
}
