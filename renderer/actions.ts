// What a person does in the window: set a cap, filter and open jobs, follow a log, cancel and
// retry. The stores hold data; live.ts keeps them current from snapshots and events; this module
// asks the engine for changes and shows what it said when it refuses.
import type { LogChunk } from '../shared/model';
import { client, loadJobs, messageOf, refreshDetail } from './live';
import { EMPTY_LOG, indexOfId, useJobs, type JobFilter } from './stores/jobs';
import { useLanes } from './stores/lanes';
import { preferredStream } from './job-words';

/** Keep this much of a followed log in memory; the engine keeps the whole (capped) file. */
const LOG_KEEP_CHARS = 256 * 1024;

// ── caps ─────────────────────────────────────────────────────────────────────────────────────
const capRequests = new Map<string, number>();

/**
 * The new cap shows at once. Once the engine has taken it, it stays shown until the lanes reflect
 * the answer's seq (the lane event with the new cap comes before the answer); if the engine
 * refuses, the cap goes back and its message says why.
 */
export async function setCap(name: string, cap: number): Promise<void> {
  const n = (capRequests.get(name) ?? 0) + 1;
  capRequests.set(name, n);
  useLanes.setState((s) => ({ pendingCap: { ...s.pendingCap, [name]: { cap, until: Infinity } }, capError: without(s.capError, name) }));
  let answer: { seq: number } | null = null;
  let refusal: string | null = null;
  try {
    answer = await client().call('setCap', { lane: name, cap });
  } catch (error) {
    refusal = messageOf(error);
  }
  // A later change to the same lane supersedes this answer.
  if (capRequests.get(name) !== n) return;
  useLanes.setState((s) => {
    if (refusal !== null) {
      const lane = s.byName[name];
      return { pendingCap: without(s.pendingCap, name), capError: { ...s.capError, [name]: `The cap stays at ${lane?.cap ?? '?'}: ${refusal}` } };
    }
    const until = answer!.seq;
    return { pendingCap: until > s.seq ? { ...s.pendingCap, [name]: { cap, until } } : without(s.pendingCap, name) };
  });
}

export function dismissCapError(lane: string): void {
  useLanes.setState((s) => ({ capError: without(s.capError, lane) }));
}

// ── jobs ─────────────────────────────────────────────────────────────────────────────────────
/** A new filter starts with nothing ticked: ticks on rows no longer shown would be acted on unseen. */
export function setJobFilter(patch: Partial<JobFilter>): Promise<void> {
  useJobs.setState({ checked: {} });
  return loadJobs({ ...useJobs.getState().filter, ...patch });
}

/** Opens a job (null: closes the detail). A failed job opens on stderr, where its error is. */
export function selectJob(id: number | null): void {
  const { rows, cursorId } = useJobs.getState();
  const state = id === null ? undefined : rows[indexOfId(rows, id)]?.state;
  useJobs.setState({ selectedId: id, cursorId: id ?? cursorId, detail: null, detailSeq: 0, log: { ...EMPTY_LOG, stream: preferredStream(state), loading: id !== null }, actionError: null });
  void refreshDetail().then(followLog);
}

export function setLogStream(stream: LogChunk['stream']): void {
  useJobs.setState({ log: { ...EMPTY_LOG, stream, chosen: true, loading: true } });
  void followLog();
}

let logInFlight = false;
let logAgain = false;

/** Reads what the log gained since last time (the tail, the first time). */
export async function followLog(): Promise<void> {
  const { selectedId: id, log } = useJobs.getState();
  if (id === null) return;
  // One read at a time; a call meanwhile (say, the job just finished) reads again after it,
  // so the last lines are never skipped.
  if (logInFlight) {
    logAgain = true;
    return;
  }
  logInFlight = true;
  try {
    const first = log.text === '' && log.nextOffset === 0;
    const c = await client().call('logTail', first ? { id, stream: log.stream } : { id, stream: log.stream, offset: log.nextOffset });
    const now = useJobs.getState();
    if (now.selectedId !== id || now.log.stream !== log.stream) return;
    const text = first ? c.text : now.log.text + c.text;
    useJobs.setState({
      log: { ...now.log, text: text.slice(-LOG_KEEP_CHARS), nextOffset: c.nextOffset, truncated: c.truncated || text.length > LOG_KEEP_CHARS, loading: false },
    });
  } catch {
    // The next job event or tick reads again; meanwhile the pane says what it has.
    useJobs.setState((s) => (s.selectedId === id && s.log.stream === log.stream && s.log.loading ? { log: { ...s.log, loading: false } } : {}));
  } finally {
    logInFlight = false;
    if (logAgain) {
      logAgain = false;
      void followLog();
    }
  }
}

/**
 * "Cancelling…" shows at once: a running job can take a while to stop (TERM, then KILL after a
 * grace), and until its job event says it stopped the window would otherwise still say Running.
 * The job's own events end it (settleCancels); a refusal ends it here, in the engine's words.
 */
export async function cancelJob(id: number): Promise<void> {
  useJobs.setState((s) => ({ actionError: null, cancelling: { ...s.cancelling, [id]: true } }));
  try {
    await client().call('cancel', { id });
  } catch (error) {
    useJobs.setState((s) => ({ cancelling: withoutId(s.cancelling, id), actionError: s.selectedId === id ? `Not cancelled: ${messageOf(error)}` : s.actionError }));
  }
}

/** The outcome arrives as job events, which move the row and the detail; only a refusal is shown here. */
export async function retryJob(id: number): Promise<void> {
  useJobs.setState((s) => ({ actionError: null, cancelling: withoutId(s.cancelling, id) }));
  try {
    await client().call('retry', { id });
  } catch (error) {
    useJobs.setState((s) => ({ actionError: s.selectedId === id ? `Not retried: ${messageOf(error)}` : s.actionError }));
  }
}

function withoutId(record: Record<number, true>, id: number): Record<number, true> {
  if (!record[id]) return record;
  const copy = { ...record };
  delete copy[id];
  return copy;
}

function without<T>(record: Record<string, T>, key: string): Record<string, T> {
  if (!(key in record)) return record;
  const copy = { ...record };
  delete copy[key];
  return copy;
}
