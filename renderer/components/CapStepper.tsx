// The cap: the one number a person sets. A spin button (arrows, Page Up/Down, Home/End) bounded by
// the machine ceiling, with − and + for the mouse. Typed values go to the engine as typed, so if
// one is refused the engine's own words explain why.
import { useState, type KeyboardEvent } from 'react';

interface Props {
  lane: string;
  value: number;
  ceiling: number;
  pending: boolean;
  onChange: (cap: number) => void;
}

export function CapStepper({ lane, value, ceiling, pending, onChange }: Props) {
  const [draft, setDraft] = useState<string | null>(null);
  const clamp = (n: number) => Math.min(ceiling, Math.max(0, n));
  const step = (n: number) => {
    setDraft(null);
    const next = clamp(n);
    if (next !== value) onChange(next);
  };

  const commit = () => {
    if (draft === null) return;
    setDraft(null);
    const text = draft.trim();
    if (text === '' || !/^-?\d+(\.\d+)?$/.test(text)) return;
    const n = Number(text);
    if (n !== value) onChange(n);
  };

  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    const moves: Record<string, number> = {
      ArrowUp: value + 1,
      ArrowDown: value - 1,
      PageUp: value + 4,
      PageDown: value - 4,
      Home: 0,
      End: ceiling,
    };
    const target = moves[e.key];
    if (target !== undefined) {
      e.preventDefault();
      step(target);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      commit();
    } else if (e.key === 'Escape') {
      setDraft(null);
    }
  };

  return (
    <span className={`stepper${pending ? ' stepper-pending' : ''}`}>
      <button type="button" className="step" tabIndex={-1} aria-label={`Lower the cap of ${lane}`} disabled={value <= 0} onClick={() => step(value - 1)}>
        −
      </button>
      <input
        className="step-value"
        type="text"
        inputMode="numeric"
        role="spinbutton"
        aria-label={`Cap of ${lane}`}
        aria-valuemin={0}
        aria-valuemax={ceiling}
        aria-valuenow={value}
        aria-valuetext={value === 0 ? '0, off' : `${value} of up to ${ceiling}`}
        value={draft ?? String(value)}
        size={3}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={onKey}
        onBlur={commit}
        onFocus={(e) => e.target.select()}
      />
      <button type="button" className="step" tabIndex={-1} aria-label={`Raise the cap of ${lane}`} disabled={value >= ceiling} onClick={() => step(value + 1)}>
        +
      </button>
    </span>
  );
}
