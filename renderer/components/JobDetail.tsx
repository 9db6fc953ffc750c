// One job in full: what it runs, when, how many tries, how it ended, and its log as it grows.
import { cancelJob, retryJob, selectJob } from '../actions';
import { describeSpec } from '../../shared/format';
import { formatDateTime, formatDuration, STATE_WORDS } from '../format';
import { useJobs } from '../stores/jobs';
import { LogTail } from './LogTail';
import { useNow } from './useNow';

export function JobDetail() {
  const job = useJobs((s) => s.detail);
  const actionError = useJobs((s) => s.actionError);
  const now = useNow(1_000, job?.state === 'running');
  if (!job) {
    return (
      <aside className="detail" aria-label="Job detail">
        <p className="empty muted">Loading…</p>
      </aside>
    );
  }
  const waited = job.startedAt !== null ? job.startedAt - job.createdAt : null;
  const ran = job.startedAt !== null ? (job.finishedAt ?? now) - job.startedAt : null;
  const cwd = job.spec.kind !== 'payload' ? job.spec.cwd : undefined;
  const canCancel = job.state === 'queued' || job.state === 'running';
  const canRetry = job.state === 'failed' || job.state === 'cancelled';

  return (
    <aside className="detail" aria-labelledby="detail-title" data-testid="job-detail">
      <div className="detail-head">
        <h3 id="detail-title">Job {job.id}</h3>
        <span className={`badge badge-${job.state}`}>{STATE_WORDS[job.state]}</span>
        <span className="spacer" />
        {canCancel && (
          <button type="button" className="button" onClick={() => void cancelJob(job.id)}>
            Cancel
          </button>
        )}
        {canRetry && (
          <button type="button" className="button" onClick={() => void retryJob(job.id)}>
            Retry
          </button>
        )}
        <button type="button" className="button button-quiet" aria-label="Close job detail" onClick={() => selectJob(null)}>
          ✕
        </button>
      </div>
      {actionError && (
        <p className="lane-note lane-error" role="alert">
          {actionError}
        </p>
      )}
      <pre className="command" aria-label={job.spec.kind === 'payload' ? 'Payload' : 'Command'}>
        {describeSpec(job.spec)}
      </pre>
      <dl className="facts">
        <dt>Lane</dt>
        <dd>{job.lane}</dd>
        {cwd && (
          <>
            <dt>Folder</dt>
            <dd className="mono ellipsis" title={cwd}>
              {cwd}
            </dd>
          </>
        )}
        <dt>Attempts</dt>
        <dd>
          {job.attempts} of {job.maxAttempts}
        </dd>
        <dt>Exit code</dt>
        <dd>{job.exitCode ?? '—'}</dd>
        <dt>Queued</dt>
        <dd>{formatDateTime(job.createdAt)}</dd>
        <dt>Started</dt>
        <dd>
          {formatDateTime(job.startedAt)}
          {waited !== null && <span className="muted"> · waited {formatDuration(waited)}</span>}
        </dd>
        <dt>Finished</dt>
        <dd>
          {formatDateTime(job.finishedAt)}
          {ran !== null && <span className="muted"> · {job.finishedAt === null ? 'running for' : 'ran'} {formatDuration(ran)}</span>}
        </dd>
        {job.result !== null && job.result !== undefined && (
          <>
            <dt>Result</dt>
            <dd className="mono result">{describeResult(job.result)}</dd>
          </>
        )}
        {job.error && (
          <>
            <dt>Why</dt>
            <dd className="error-text">{job.error}</dd>
          </>
        )}
      </dl>
      <LogTail running={job.state === 'running'} />
    </aside>
  );
}

/** What a persistent worker answered, as JSON, short enough for the pane. */
function describeResult(result: unknown): string {
  const json = JSON.stringify(result) ?? String(result);
  return json.length > 600 ? `${json.slice(0, 600)}…` : json;
}
