// First-run help: what a lane, a cap and the nudge are, in two sentences, with the pip legend.
// Open until dismissed (remembered), and again from the "?" in the header.
import { dismissHelp, usePrefs } from '../stores/prefs';

export function HelpPanel() {
  const open = usePrefs((s) => s.helpOpen);
  if (!open) return null;
  return (
    <section className="help" id="help" aria-labelledby="help-title" data-testid="help">
      <h2 id="help-title" className="visually-hidden">
        How Lanes works
      </h2>
      <div className="help-text">
        <p>
          A <strong>lane</strong> is a queue of jobs with worker processes of its own; its <strong>cap</strong> is the most workers it may run at once (0
          turns it off), and Lanes starts and stops workers within it as work comes and goes.
        </p>
        <p>
          When raising a cap would get waiting work done sooner, the lane shows a <strong>nudge</strong> with one button that does it.
        </p>
        <p className="legend" aria-label="Workers are drawn as">
          <span className="pip pip-busy" /> busy
          <span className="pip pip-idle" /> idle
          <span className="pip pip-draining" /> finishing, then stopping
          <span className="pip pip-free" /> allowed by the cap
        </p>
      </div>
      <button type="button" className="button" onClick={dismissHelp}>
        Got it
      </button>
    </section>
  );
}
