// Pause all work, and the banner that says the machine is quiet because of it. A pause is a hold
// with an end time ("for 1 h") or none ("until I resume"): running jobs finish, nothing new
// starts, and the caps stay as they are, so resuming needs nothing put back.
import { useEffect, useRef, useState } from 'react';
import { PAUSE_HOUR_S, pauseAll, resumeAll } from '../commands';
import { formatClock } from '../format';
import { useLanes } from '../stores/lanes';

/** The header's button: "Pause all" opens its two choices; while paused it is "Resume". */
export function PauseButton() {
  const paused = useLanes((s) => s.paused);
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);

  // A click elsewhere or Esc closes the choices, as a menu does.
  useEffect(() => {
    if (!open) return;
    const away = (e: Event) => {
      if (e instanceof KeyboardEvent ? e.key === 'Escape' : !box.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', away);
    document.addEventListener('keydown', away);
    return () => {
      document.removeEventListener('pointerdown', away);
      document.removeEventListener('keydown', away);
    };
  }, [open]);

  if (paused) {
    return (
      <button type="button" className="button button-small" onClick={() => void resumeAll()}>
        Resume
      </button>
    );
  }
  const choose = (forSeconds?: number) => {
    setOpen(false);
    void pauseAll(forSeconds);
  };
  return (
    <div className="menu-box" ref={box}>
      <button type="button" className="button button-small" aria-haspopup="menu" aria-expanded={open} onClick={() => setOpen(!open)}>
        Pause all ▾
      </button>
      {open && (
        <div className="menu" role="menu" aria-label="Pause all work">
          <button type="button" role="menuitem" autoFocus onClick={() => choose(PAUSE_HOUR_S)}>
            For 1 hour
          </button>
          <button type="button" role="menuitem" onClick={() => choose()}>
            Until I resume
          </button>
        </div>
      )}
    </div>
  );
}

/** While paused: why the machine is quiet, until when, and the way out. */
export function PauseBanner() {
  const paused = useLanes((s) => s.paused);
  if (!paused) return null;
  return (
    <div className="pause-banner" role="status" data-testid="paused">
      <span className="pause-icon" aria-hidden="true">
        ❚❚
      </span>
      <span className="pause-text">
        <strong>All work is paused {paused.until === null ? 'until you resume it' : `until ${formatClock(paused.until)}`}</strong>
        {' — '}that is why the machine is quiet. Running jobs finish; nothing new starts. The caps are unchanged.
      </span>
      <button type="button" className="button button-small button-primary" onClick={() => void resumeAll()}>
        Resume now
      </button>
    </div>
  );
}
