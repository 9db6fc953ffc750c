// The window's title bar row: how much of the machine is in use and what holds Lanes back (MachineMeter),
// Add lane, Pause all / Resume, whether the window can hear the engine, and "?" for the help.
import { isStale, useConnection } from '../stores/connection';
import { toggleHelp, usePrefs } from '../stores/prefs';
import { MachineMeter } from './MachineMeter';
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
  const loaded = useConnection((s) => s.loaded);
  const link = useConnection((s) => s.link);
  const keyless = useConnection((s) => s.keyless);
  const keyKept = useConnection((s) => s.keyKept);
  // Nothing on screen can be acted on while it is from before.
  const stale = useConnection(isStale);
  const helpOpen = usePrefs((s) => s.helpOpen);

  return (
    <header className="header">
      <h1 className="title">Lanes</h1>
      {loaded && <MachineMeter />}
      {loaded && (
        <button type="button" className="button button-small" onClick={openAddLane} disabled={stale}>
          Add lane…
        </button>
      )}
      {loaded && (
        <div className="contents" inert={stale}>
          <PauseButton />
        </div>
      )}
      <div className={`link link-${link}`} role="status" aria-live="polite">
        <span className="link-dot" aria-hidden="true" />
        {link === 'unauthorized' && keyless ? 'No key' : link === 'unauthorized' && keyKept ? 'Needs a new key' : LINK_WORDS[link]}
      </div>
      <button type="button" className="help-button" aria-expanded={helpOpen} aria-controls={helpOpen ? 'help' : undefined} aria-label="How Lanes works" title="How Lanes works" onClick={toggleHelp}>
        ?
      </button>
    </header>
  );
}
