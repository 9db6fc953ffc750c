// The tail of a job's log, following as it grows. Job events pull new text; a running job's output
// does not raise events, so while it runs the tail is also read once a second — one small request,
// only for the one job on screen. Which stream opens first is decided in actions (stderr for a
// failed job); the switch is always one click away, and an empty stream offers the other.
import { useEffect, useLayoutEffect, useRef } from 'react';
import { followLog, setLogStream } from '../actions';
import { useJobs } from '../stores/jobs';

const FOLLOW_MS = 1_000;

export function LogTail({ running }: { running: boolean }) {
  const log = useJobs((s) => s.log);
  const pre = useRef<HTMLPreElement>(null);
  const pinned = useRef(true);

  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => void followLog(), FOLLOW_MS);
    return () => clearInterval(timer);
  }, [running]);

  // Stay at the bottom while the reader is there; leave them alone if they scrolled up.
  useLayoutEffect(() => {
    const el = pre.current;
    if (el && pinned.current) el.scrollTop = el.scrollHeight;
  }, [log.text]);

  return (
    <section className="log" aria-label="Log">
      <div className="log-head">
        <h4>Log</h4>
        <div className="segmented" role="radiogroup" aria-label="Stream">
          {(['stdout', 'stderr'] as const).map((stream) => (
            <button key={stream} type="button" role="radio" aria-checked={log.stream === stream} className="segment" onClick={() => setLogStream(stream)}>
              {stream}
            </button>
          ))}
        </div>
        {running && <span className="muted following">following</span>}
      </div>
      <pre
        ref={pre}
        className="log-text"
        tabIndex={0}
        aria-label={`${log.stream} of this job`}
        data-testid="log-text"
        onScroll={(e) => {
          const el = e.currentTarget;
          pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight < 24;
        }}
      >
        {log.truncated && <span className="muted">… earlier output not shown{'\n'}</span>}
        {log.text !== '' ? log.text : log.loading ? <span className="muted">Reading {log.stream}…</span> : <EmptyStream stream={log.stream} />}
      </pre>
    </section>
  );
}

function EmptyStream({ stream }: { stream: 'stdout' | 'stderr' | 'all' }) {
  const other = stream === 'stdout' ? 'stderr' : 'stdout';
  return (
    <span className="muted">
      No output on {stream}.{' '}
      <button type="button" className="link-button" onClick={() => setLogStream(other)}>
        Show {other}
      </button>
    </span>
  );
}
