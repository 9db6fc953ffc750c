// A small modal form over the window: a <dialog> shown with showModal(), so the page behind is
// inert and Esc closes it; the first field takes the keyboard. The forms (add a job, add or remove
// a lane) are built on it.
import { useEffect, useRef, type FormEvent, type ReactNode } from 'react';

interface Props {
  title: string;
  onClose(): void;
  onSubmit(): void;
  /** The engine's refusal of the last try, in its words. */
  error: string | null;
  busy: boolean;
  submit: string;
  /** A destructive action is drawn as one. */
  danger?: boolean;
  children: ReactNode;
  extraActions?: ReactNode;
  testId: string;
}

export function Modal({ title, onClose, onSubmit, error, busy, submit, danger, children, extraActions, testId }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (!d.open) d.showModal();
    return () => d.close();
  }, []);
  const send = (e: FormEvent) => {
    e.preventDefault();
    if (!busy) onSubmit();
  };
  return (
    <dialog
      ref={dialog}
      className="modal"
      aria-labelledby={`${testId}-title`}
      data-testid={testId}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <form className="modal-form" onSubmit={send}>
        <h2 id={`${testId}-title`} className="modal-title">
          {title}
        </h2>
        {children}
        {error && (
          <p className="modal-error" role="alert">
            {error}
          </p>
        )}
        <div className="modal-actions">
          {extraActions}
          <span className="spacer" />
          <button type="button" className="button" onClick={onClose}>
            Close
          </button>
          <button type="submit" className={`button ${danger ? 'button-danger' : 'button-primary'}`} disabled={busy}>
            {submit}
          </button>
        </div>
      </form>
    </dialog>
  );
}
