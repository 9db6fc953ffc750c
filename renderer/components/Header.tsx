// The window's title bar row: how much of the machine is in use, Add lane, Pause all / Resume, whether the
// window can hear the engine, and "?" for the help. The meter is the ceiling: all lanes together never run more
// workers than this.
import { useConnection } from '../stores/connection';
import { useLanes, workersInUse } from '../stores/lanes';
import { toggleHelp, usePrefs } from '../stores/prefs';
import { plural } from '../format';
import { PauseButton } from './PauseControl';
import { openAddLane } from './LaneDialogs';

const LINK_WORDS = {
  connecting: 'Connecting…',
  connected: 'Connected',
  reconnecting: 'Reconnecting…',
  unauthorized: 'Token refused',
  gone: 'Lanes restarted',
} as const;

export function Header() {
  const ceiling = useLanes((s) => s.ceiling);
  const inUse = useLanes(workersInUse);
  const loaded = useConnection((s) => s.loaded);
  const link = useConnection((s) => s.link);
  const keyless = useConnection((s) => s.keyless);
  const helpOpen = usePrefs((s) => s.helpOpen);
  const share = ceiling > 0 ? Math.min(1, inUse / ceiling) : 0;

  return (
    <header className="header">
      <h1 className="title">Lanes</h1>
      {loaded && (
        <div className="machine">
          <span className="machine-words" id="machine-label">
            <span className="machine-long">This machine: </span>
            {inUse} of {plural(ceiling, 'worker')} in use
          </span>
          <div
            className="meter"
            role="meter"
            aria-labelledby="machine-label"
            aria-valuemin={0}
            aria-valuemax={ceiling}
            aria-valuenow={inUse}
            title={`This machine allows up to ${plural(ceiling, 'worker')} at once (its cores less one, kept for you).`}
          >
            <div className="meter-fill" style={{ width: `${share * 100}%` }} />
          </div>
        </div>
      )}
      {loaded && (
        <button type="button" className="button button-small" onClick={openAddLane}>
          Add lane…
        </button>
      )}
      {loaded && <PauseButton />}
      <div className={`link link-${link}`} role="status" aria-live="polite">
        <span className="link-dot" aria-hidden="true" />
        {link === 'unauthorized' && keyless ? 'No key' : LINK_WORDS[link]}
      </div>
      <button type="button" className="help-button" aria-expanded={helpOpen} aria-controls={helpOpen ? 'help' : undefined} aria-label="How Lanes works" title="How Lanes works" onClick={toggleHelp}>
        ?
      </button>
    </header>
  );
}
