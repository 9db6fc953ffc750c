// Pause all work, or one lane's, and the banner that says the machine is quiet because of it. A pause is a hold
// with an end time (for 15 minutes, 1 hour, 4 hours, until tomorrow morning, a span typed) or
// none ("until I resume"): running jobs finish, nothing new starts, and the caps stay as they
// are, so resuming needs nothing put back.
import { useEffect, useId, useRef, useState } from 'react';
import { PAUSE_SPANS, pauseSpan, TOMORROW_HOUR, tomorrowMorning } from '../../shared/pause-spans';
import { pauseAll, resumeAll, type PauseChoice } from '../commands';
import { formatClock } from '../format';
import { useLanes } from '../stores/lanes';

/** The header's button: "Pause all" opens its choices; while paused it is "Resume". */
export function PauseButton() {
  const paused = useLanes((s) => s.paused);
  if (paused) {
    return (
      <button type="button" className="button button-small" onClick={() => void resumeAll()}>
        Resume
      </button>
    );
  }
  return <PauseMenu text="Pause all ▾" name="Pause all work" onChoose={(choice) => void pauseAll(choice)} />;
}

/**
 * A lane's own pause (`pause` with `lane`): the same choices, for that lane alone; while it is
 * paused by itself, "Resume" for it. Nothing while all work is paused: the header's Resume is the way out.
 */
export function LanePause({ lane }: { lane: string }) {
  const own = useLanes((s) => s.byName[lane]?.paused);
  const all = useLanes((s) => s.paused);
  if (all) return null;
  if (own) {
    return (
      <button type="button" className="lane-pause lane-resume" aria-label={`Resume ${lane}`} title={`Resume ${lane}`} onClick={() => void resumeAll(lane)}>
        ▶
      </button>
    );
  }
  // A small mark beside the lane's name, as ✕ is: six lanes must still fit on one screen.
  return <PauseMenu text="❚❚" label={`Pause ${lane}`} name={`Pause ${lane}`} buttonClass="lane-pause" onChoose={(choice) => void pauseAll(choice, lane)} />;
}

interface MenuProps {
  text: string;
  /** The button's name, when its text alone would not say which pause it is. */
  label?: string;
  name: string;
  buttonClass?: string;
  onChoose(choice: PauseChoice): void;
}

/** A button that opens the pause's choices: the fixed spans, until tomorrow, until resumed, a span typed. */
function PauseMenu({ text, label, name, buttonClass = 'button button-small', onChoose }: MenuProps) {
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

  const choose = (choice: PauseChoice) => {
    setOpen(false);
    onChoose(choice);
  };
  return (
    <div className="menu-box" ref={box}>
      <button type="button" className={buttonClass} aria-label={label} title={label} aria-haspopup="menu" aria-expanded={open} onClick={() => setOpen(!open)}>
        {text}
      </button>
      {open && (
        <div className="menu menu-pause">
          <div role="menu" aria-label={name}>
            {PAUSE_SPANS.map((span, i) => (
              <button key={span.seconds} type="button" role="menuitem" autoFocus={i === 0} onClick={() => choose({ forSeconds: span.seconds })}>
                For {span.label}
              </button>
            ))}
            <button type="button" role="menuitem" title={`Until ${TOMORROW_HOUR}:00 tomorrow morning`} onClick={() => choose({ until: tomorrowMorning(Date.now()) })}>
              Until tomorrow, {String(TOMORROW_HOUR).padStart(2, '0')}:00
            </button>
            <button type="button" role="menuitem" onClick={() => choose({})}>
              Until I resume
            </button>
          </div>
          <TypedSpan onPause={(forSeconds) => choose({ forSeconds })} />
        </div>
      )}
    </div>
  );
}

/** "For [2h30m] Pause": a span of one's own, checked before it is sent, its refusal beside it. */
function TypedSpan({ onPause }: { onPause(seconds: number): void }) {
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const errorId = useId();
  return (
    <form
      className="pause-typed"
      onSubmit={(e) => {
        e.preventDefault();
        const span = pauseSpan(text);
        if ('problem' in span) setProblem(span.problem);
        else onPause(span.seconds);
      }}
    >
      <label>
        For
        <input
          value={text}
          placeholder="2h30m"
          spellCheck={false}
          aria-invalid={problem !== null ? true : undefined}
          aria-describedby={problem !== null ? errorId : undefined}
          onChange={(e) => {
            setText(e.target.value);
            setProblem(null);
          }}
        />
      </label>
      <button type="submit" className="button button-small">
        Pause
      </button>
      {problem && (
        <small id={errorId} className="field-error" role="alert">
          {problem}
        </small>
      )}
    </form>
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
