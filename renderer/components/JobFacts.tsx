// The job's facts under its log: where it ran, its times (a persistent worker's load apart from
// the job's own run), its tries, what a persistent worker answered, and every attempt that did not
// succeed with its own error.
import type { AttemptRecord, Job, JobLink } from '../../shared/model';
import { formatClock, formatDateTime, formatDuration } from '../format';
import { neverRan, ranText } from '../job-words';
import { useSecondClock } from '../stores/clock';
import { JobProgress } from './JobProgress';

const OUTCOME_WORDS: Record<AttemptRecord['outcome'], string> = { failed: 'failed', cancelled: 'cancelled', interrupted: 'interrupted' };

export function JobFacts({ job }: { job: Job }) {
  const now = useSecondClock(job.state === 'running');
  const waited = job.startedAt !== null ? job.startedAt - job.createdAt : null;
  const cwd = job.spec.kind !== 'payload' ? job.spec.cwd : undefined;
  const envNames = job.spec.kind !== 'payload' ? Object.keys(job.spec.env ?? {}).sort() : [];

  return (
    <>
      <dl className="facts">
        <dt>Lane</dt>
        <dd>{job.lane}</dd>
        <dt>Attempts</dt>
        <dd>
          {job.attempts} of {job.maxAttempts}
        </dd>
        {!neverRan(job) && (
          <>
            <dt>Exit code</dt>
            <dd>{job.exitCode ?? '—'}</dd>
          </>
        )}
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
          {job.startedAt !== null && (
            <span className="muted" data-testid="ran-for">
              {' · '}
              {ranText(job, now)}
            </span>
          )}
        </dd>
        {job.progress && (
          <>
            <dt>Progress</dt>
            <dd data-testid="detail-progress">
              <JobProgress progress={job.progress} detail />
              {job.state !== 'running' && <span className="muted"> · when it ended</span>}
            </dd>
          </>
        )}
        {cwd && (
          <>
            <dt data-fact="folder">Folder</dt>
            <dd className="mono ellipsis" title={cwd} data-fact="folder">
              {cwd}
            </dd>
          </>
        )}
        {envNames.length > 0 && (
          <>
            {/* Names only: values are often tokens, and the pane is on screen for anyone to see. */}
            <dt>Environment</dt>
            <dd className="mono" data-fact="env">
              {envNames.join(', ')}
            </dd>
          </>
        )}
        <dt>Timeout</dt>
        <dd data-fact="timeout">{job.timeoutMs === null ? 'none' : formatDuration(job.timeoutMs)}</dd>
        <OrderFacts job={job} />
        {job.logsTrimmed && (
          <>
            <dt>Output</dt>
            <dd data-fact="logs-trimmed">removed to keep all logs within their bound (the oldest finished jobs' go first)</dd>
          </>
        )}
        {job.result !== null && job.result !== undefined && (
          <>
            <dt>Result</dt>
            <dd className="mono result">{describeResult(job.result)}</dd>
          </>
        )}
      </dl>
      {job.history.length > 0 && (
        <section className="history" aria-labelledby="history-title">
          <h4 id="history-title">Attempts that did not succeed</h4>
          <ol>
            {job.history.map((a) => {
              const why = a.error ?? (a.exitCode !== null ? `exited with code ${a.exitCode}` : null);
              return (
                <li key={a.attempt}>
                  <span className="num">#{a.attempt}</span> {OUTCOME_WORDS[a.outcome]} at {formatClock(a.finishedAt)}
                  {why && <span className="history-why"> — {why}</span>}
                </li>
              );
            })}
          </ol>
        </section>
      )}
    </>
  );
}

/** What it runs after and what runs after it, its time, priority and labels, and its restarts. */
function OrderFacts({ job }: { job: Job }) {
  const link = (l: JobLink) => (
    <li key={l.id}>
      <span className="num">{l.id}</span> <span className="muted">({l.cleanedAt !== undefined ? `${l.state}, since cleaned` : l.state})</span> <span className="mono">{l.command}</span>
    </li>
  );
  return (
    <>
      {job.after && job.after.length > 0 && (
        <>
          <dt>Runs after</dt>
          <dd data-testid="runs-after">
            <ul className="links">{job.after.map(link)}</ul>
          </dd>
        </>
      )}
      {job.dependents && job.dependents.length > 0 && (
        <>
          <dt>Then</dt>
          <dd data-testid="then">
            <ul className="links">{job.dependents.map(link)}</ul>
          </dd>
        </>
      )}
      {job.notBefore !== undefined && (
        <>
          <dt>Not before</dt>
          <dd>{formatDateTime(job.notBefore)}</dd>
        </>
      )}
      {job.priority !== undefined && (
        <>
          <dt>Priority</dt>
          <dd>{job.priority}</dd>
        </>
      )}
      {job.labels !== undefined && (
        <>
          <dt>Labels</dt>
          <dd>{job.labels.join(', ')}</dd>
        </>
      )}
      {job.restartOf !== undefined && (
        <>
          <dt>Restart of</dt>
          <dd>job {job.restartOf}</dd>
        </>
      )}
      {job.restartedAs !== undefined && job.restartedAs.length > 0 && (
        <>
          <dt>Restarted as</dt>
          <dd>{job.restartedAs.map((id) => `job ${id}`).join(', ')}</dd>
        </>
      )}
    </>
  );
}

/** What a persistent worker answered, as JSON, short enough for the pane. */
function describeResult(result: unknown): string {
  const json = JSON.stringify(result) ?? String(result);
  return json.length > 600 ? `${json.slice(0, 600)}…` : json;
}
