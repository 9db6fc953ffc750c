// The Add job form's Run after field: what is set shows as chips (each with its ✕), and one text
// field beside them types or pastes ids, or searches jobs by command or label. Suggestions sit in
// a list under it and are never drawn as set; only jobs that can still succeed are offered. The
// list is what the last search found, in that order: jobs moving on meanwhile do not reorder it
// under the pointer, and a pick only takes that one job out of it.
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { JobLink, JobSummary } from '../../shared/model';
import { offered, typedIds } from '../after-picker';
import { findAfter, type Found } from '../after-search';
import { messageOf } from '../live';

/** Typing pauses this long before the engine is asked. */
const SEARCH_DELAY_MS = 200;

interface Props {
  /** The ids it runs after, as the form holds them. */
  value: number[];
  onChange(ids: number[]): void;
  /** The job being edited: never offered to run after itself. */
  self: number | null;
  /** What the edited job already runs after, so its chips name their commands. */
  known: readonly JobLink[];
  invalid: { 'aria-invalid'?: true; 'aria-describedby'?: string };
}

export function AfterPicker({ value, onChange, self, known, invalid }: Props) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  // Null until the first answer, so "nothing matches" is never said before anything was asked.
  const [found, setFound] = useState<Found | null>(null);
  const [active, setActive] = useState(0);
  const [names, setNames] = useState<Record<number, string>>(() => Object.fromEntries(known.map((l) => [l.id, l.command ?? ''])));

  // Each new text is one search; an answer to an older text is dropped.
  useEffect(() => {
    if (!open) return;
    let current = true;
    const timer = setTimeout(() => {
      findAfter(text, self).then(
        (f) => current && (setFound(f), setActive(0)),
        (error: unknown) => current && setFound({ jobs: [], notes: [`not searched: ${messageOf(error)}`] }),
      );
    }, SEARCH_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [text, open, self]);

  const options = offered(found?.jobs ?? [], value, self);
  const add = (jobs: JobSummary[]) => {
    if (jobs.length === 0) return;
    setNames((n) => ({ ...n, ...Object.fromEntries(jobs.map((j) => [j.id, j.command])) }));
    onChange([...value, ...jobs.map((j) => j.id).filter((j) => !value.includes(j))]);
    setText('');
  };
  const remove = (gone: number) => onChange(value.filter((v) => v !== gone));

  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      setOpen(true);
      if (options.length > 0) setActive((a) => (a + (e.key === 'ArrowDown' ? 1 : options.length - 1)) % options.length);
    } else if (e.key === 'Enter' && (text.trim() !== '' || (open && options.length > 0))) {
      // Enter picks here; it adds the job only from the form's other fields.
      e.preventDefault();
      const ids = typedIds(text);
      // Typed ids: each one the engine knows and that can still succeed, looked up now (the
      // suggestions may still be for what was typed before); the notes say why the rest were not.
      if (ids) {
        void findAfter(text, self).then((f) => {
          add(offered(f.jobs, value, self));
          setFound(f.notes.length > 0 ? { jobs: [], notes: f.notes } : null);
        }, (error: unknown) => setFound({ jobs: [], notes: [`not added: ${messageOf(error)}`] }));
      } else if (options[active]) add([options[active]]);
    } else if (e.key === 'Escape' && open) {
      // Closes the suggestions, not the form.
      e.preventDefault();
      e.stopPropagation();
      setOpen(false);
    } else if (e.key === 'Backspace' && text === '' && value.length > 0) {
      remove(value[value.length - 1]!);
    }
  };

  const listId = `${id}-options`;
  const listed = open && found !== null && options.length > 0;
  const optionId = (i: number) => `${id}-option-${i}`;
  return (
    <div className="after-picker" data-testid="after-picker">
      {value.length > 0 && (
        <ul className="chips" aria-label="Runs after">
          {value.map((v) => (
            <li key={v} className="chip" data-testid="after-chip" data-job-id={v}>
              <span className="num">{v}</span>
              {names[v] ? <span className="mono chip-command">{names[v]}</span> : null}
              <button type="button" className="chip-remove" aria-label={`Remove job ${v}`} title="Remove" onClick={() => remove(v)}>
                ✕
              </button>
            </li>
          ))}
        </ul>
      )}
      <input
        ref={input}
        id={`${id}-input`}
        role="combobox"
        aria-label="Run after"
        aria-autocomplete="list"
        // Expanded only while there is a list to control (a note alone is a status, not a list).
        aria-expanded={listed}
        aria-controls={listed ? listId : undefined}
        aria-activedescendant={open && options[active] ? optionId(active) : undefined}
        spellCheck={false}
        autoComplete="off"
        placeholder={value.length > 0 ? 'another id, or search' : 'job ids, or search commands and labels'}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKey}
        {...invalid}
      />
      {open && found && (
        <div className="after-suggestions">
          {options.length > 0 && (
            <ul id={listId} role="listbox" aria-label="Suggestions" data-testid="after-options">
              {options.map((o, i) => (
                <li
                  key={o.id}
                  id={optionId(i)}
                  role="option"
                  aria-selected={i === active}
                  className={`after-option${i === active ? ' after-option-active' : ''}`}
                  data-job-id={o.id}
                  // Picked on press, before the field's blur closes the list.
                  onMouseDown={(e) => {
                    e.preventDefault();
                    add([o]);
                  }}
                >
                  <span className="num">{o.id}</span> <span className="mono ellipsis">{o.command || '(cleaned)'}</span> <span className="muted">{o.state}</span>
                </li>
              ))}
            </ul>
          )}
          {found.notes.map((n) => (
            <p key={n} className="after-note" role="status">
              {n}
            </p>
          ))}
          {options.length === 0 && found.notes.length === 0 && <p className="after-note muted">No job that can still succeed matches.</p>}
        </div>
      )}
    </div>
  );
}
