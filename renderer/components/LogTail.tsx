// The tail of a job's log, following as it grows. Job events pull new text; a running job's output
// does not raise events, so while it runs the tail is also read once a second — one small request,
// only for the one job on screen. "All" is both streams as they came, with the engine's line
// between attempts ("── attempt 2 · 14:03:11 ──"); which stream opens first is decided in
// job-words (stderr for a failed job); the switch is always one click away, and an empty stream
// offers the combined one.
import { useEffect, useLayoutEffect, useRef } from 'react';
import { followLog, setLogStream } from '../actions';
import { useJobs } from '../stores/jobs';
import { ATTEMPT_LINE } from '../job-words';

const FOLLOW_MS = 1_000;

const STREAMS = [
  { stream: 'all', label: 'all' },
  { stream: 'stdout', label: 'stdout' },
  { stream: 'stderr', label: 'stderr' },
] as const;

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
          {STREAMS.map(({ stream, label }) => (
            <button key={stream} type="button" role="radio" aria-checked={log.stream === stream} className="segment" onClick={() => setLogStream(stream)}>
              {label}
            </button>
          ))}
        </div>
        {running && <span className="muted following">following</span>}
      </div>
      <pre
        ref={pre}
        className="log-text"
        tabIndex={0}
        aria-label={log.stream === 'all' ? 'Output of this job' : `${log.stream} of this job`}
        data-testid="log-text"
        onScroll={(e) => {
          const el = e.currentTarget;
          pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight < 24;
        }}
      >
        {log.truncated && <span className="muted">… earlier output not shown{'\n'}</span>}
        {log.text !== '' ? <Attempts text={log.text} /> : log.loading ? <span className="muted">Reading {log.stream === 'all' ? 'the output' : log.stream}…</span> : <EmptyStream stream={log.stream} />}
      </pre>
    </section>
  );
}

/** The engine's line between attempts: drawn as a rule, so three attempts never run together. */

function Attempts({ text }: { text: string }) {
  const lines = text.split('\n');
  if (!lines.some((l) => ATTEMPT_LINE.test(l))) return <>{text}</>;
  // Runs of plain lines stay one text node each; only the separators get an element.
  const parts: (string | { line: string })[] = [];
  let run: string[] = [];
  lines.forEach((line) => {
    if (ATTEMPT_LINE.test(line)) {
      if (run.length) parts.push(run.join('\n') + '\n');
      run = [];
      parts.push({ line });
    } else run.push(line);
  });
  if (run.length) parts.push(run.join('\n'));
  return (
    <>
      {parts.map((p, i) =>
        typeof p === 'string' ? (
          p
        ) : (
          <span key={i} className="attempt-line" data-testid="attempt-line">
            {p.line}
            {'\n'}
          </span>
        ),
      )}
    </>
  );
}

function EmptyStream({ stream }: { stream: 'stdout' | 'stderr' | 'all' }) {
  if (stream === 'all') return <span className="muted">No output yet.</span>;
  return (
    <span className="muted">
      No output on {stream}.{' '}
      <button type="button" className="link-button" onClick={() => setLogStream('all')}>
        Show all output
      </button>
    </span>
  );
}
