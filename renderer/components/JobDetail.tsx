// One job in full, where it can always be seen: beside the list when the window has room, else a
// view of its own over the whole window (a modal <dialog>, so the page behind is inert). Esc or
// Close shuts it and puts the keyboard back on the row it came from.
import { useEffect, useRef, type ReactNode, type RefObject } from 'react';
import { flushSync } from 'react-dom';
import { cancelJob, retryJob, selectJob } from '../actions';
import { describeSpec } from '../../shared/format';
import { isCancelling, lastLogLine, neverRan, outcomeOf } from '../job-words';
import { useJobs } from '../stores/jobs';
import { JobFacts } from './JobFacts';
import { JobBadge } from './JobList';
import { LogTail } from './LogTail';
import { openEditJob } from './AddJobDialog';
import { restartJob } from '../commands';

/** Closes the detail; focus goes back to the list, whose active row is still the job just closed. */
export function closeDetail(): void {
  // Rendered at once, so the list is back (and focusable) before focus moves to it.
  flushSync(() => selectJob(null));
  document.querySelector<HTMLElement>('[data-testid="job-list"]')?.focus();
}

export function JobDetail({ asPage }: { asPage: boolean }) {
  const closeButton = useRef<HTMLButtonElement>(null);
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const d = dialog.current;
    if (asPage && d) {
      if (!d.open) d.showModal();
      closeButton.current?.focus();
      return () => d.close();
    }
    // Beside the list nothing is modal, so Esc is heard wherever focus is — except in a field,
    // where Esc means "never mind" to the field (the cap's draft, an open select).
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented || isEditable(e.target)) return;
      e.preventDefault();
      closeDetail();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [asPage]);

  const body = <DetailBody closeButton={closeButton} />;
  if (asPage) {
    return (
      <dialog
        ref={dialog}
        className="detail detail-page"
        aria-labelledby="detail-title"
        data-testid="job-detail"
        onCancel={(e) => {
          // Esc: close the React way, so the dialog and the selection never disagree.
          e.preventDefault();
          closeDetail();
        }}
      >
        {body}
      </dialog>
    );
  }
  return (
    <aside className="detail detail-side" aria-labelledby="detail-title" data-testid="job-detail">
      {body}
    </aside>
  );
}

function DetailBody({ closeButton }: { closeButton: RefObject<HTMLButtonElement | null> }) {
  const job = useJobs((s) => s.detail);
  const selectedId = useJobs((s) => s.selectedId);
  const actionError = useJobs((s) => s.actionError);
  const cancelling = useJobs((s) => (job ? isCancelling(job, s.cancelling) : false));
  const log = useJobs((s) => s.log);
  const close = (
    <button ref={closeButton} type="button" className="button button-quiet detail-close" onClick={closeDetail} title="Close (Esc)">
      <span aria-hidden="true">✕ </span>Close
    </button>
  );
  if (!job) {
    return (
      <Head title={`Job ${selectedId ?? ''}`} close={close}>
        <p className="empty muted">Loading…</p>
      </Head>
    );
  }
  const canCancel = job.state === 'queued' || job.state === 'running';
  // A failed job's headline gives the line its log ends on, where the command said why, before
  // the bare exit code; from stderr (where it opens) or the combined view, never from stdout alone.
  const logLine = job.state === 'failed' && !neverRan(job) && log.stream !== 'stdout' && !log.loading ? lastLogLine(log.text) : null;
  const canRetry = job.state === 'failed' || job.state === 'cancelled';
  const outcome = outcomeOf(job);

  return (
    <Head
      title={`Job ${job.id}`}
      badge={<JobBadge job={job} cancelling={cancelling} testId="job-state" />}
      actions={
        <>
          {canCancel && (
            <button type="button" className="button" disabled={cancelling} onClick={() => void cancelJob(job.id)}>
              {cancelling ? 'Cancelling…' : 'Cancel'}
            </button>
          )}
          {job.state === 'queued' && (
            <button type="button" className="button" onClick={() => openEditJob(job)}>
              Edit…
            </button>
          )}
          {canRetry && (
            <button type="button" className="button" onClick={() => void retryJob(job.id)}>
              Retry
            </button>
          )}
          {(canRetry || job.state === 'succeeded') && (
            <button type="button" className="button" title="Run it again as a new job with the same command (lanes restart)" onClick={() => void restartJob(job.id)}>
              Run again
            </button>
          )}
        </>
      }
      close={close}
    >
      {actionError && (
        <p className="detail-note detail-refused" role="alert">
          {actionError}
        </p>
      )}
      {outcome && (
        <div className={`detail-note outcome-${outcome.tone}`} role={outcome.tone === 'bad' ? 'alert' : undefined} data-testid="job-outcome">
          <strong>{outcome.title}</strong>
          {logLine && (
            <span className="outcome-line mono" data-testid="outcome-line">
              {logLine}
            </span>
          )}
          {outcome.why && <span className="outcome-why">{outcome.why}</span>}
        </div>
      )}
      <pre className="command" aria-label={job.spec.kind === 'payload' ? 'Payload' : 'Command'}>
        {describeSpec(job.spec)}
      </pre>
      {/* A dependent that never ran has no output: an empty log pane would read as a run that said nothing. */}
      {!neverRan(job) && <LogTail running={job.state === 'running'} />}
      <JobFacts job={job} />
    </Head>
  );
}

interface HeadProps {
  title: string;
  badge?: ReactNode;
  actions?: ReactNode;
  /** Always last and always the same element, so focus on it survives the job loading. */
  close: ReactNode;
  children: ReactNode;
}

function Head({ title, badge, actions, close, children }: HeadProps) {
  return (
    <>
      <div className="detail-head">
        <h3 id="detail-title">{title}</h3>
        {badge}
        <span className="spacer" />
        {actions}
        {close}
      </div>
      {children}
    </>
  );
}

function isEditable(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName));
}
