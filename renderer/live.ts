// The window's live picture: snapshots from the engine and the events after them. Every snapshot
// carries the seq it reflects, and every store remembers the seq it is at, so an event is applied
// only to a store that has not seen it yet. Events that arrive while a snapshot is on its way are
// held and applied on top of it when it lands; nothing is guessed. Events are applied once per
// animation frame, so a burst of a thousand job events costs one render, not a thousand.
import type { LanesClient } from '../shared/client/client';
import { LanesError } from '../shared/errors';
import type { LanesEvent } from '../shared/events';
import type { JobPage, JobState, JobSummary, Snapshot, TimelinePoint } from '../shared/model';
import { TIMELINE_SPAN_MS } from '../shared/limits';
import { createClient } from './client';
import { foldEvents } from './events';
import { useConnection } from './stores/connection';
import { applyJobEvents, labelOf, logForState, useJobs, type JobFilter } from './stores/jobs';
import { settleCancels } from './job-words';
import { applyLaneEvents, replaceLanes, useLanes } from './stores/lanes';
import { appendLanePoints, prependLedger, useTimeline } from './stores/timeline';

const PAGE_SIZE = 200;

let engine: LanesClient | null = null;

export function client(): LanesClient {
  if (!engine) throw new Error('start() first');
  return engine;
}

/** What a failed request says, in the engine's words. */
export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export function start(onJobEvent: () => void): () => void {
  const created = createClient();
  engine = created.client;
  useConnection.setState({ keyless: created.keyless, keyKept: created.keyKept });
  let opened = false;
  return engine.follow(0, {
    event: (event) => enqueue(event, onJobEvent),
    // The feed is open: from here on no event is missed, so the snapshots can be read.
    open: () => {
      if (opened) return;
      opened = true;
      return reload();
    },
    reset: () => void reload(),
    link: (link) => {
      // Only a connection that was up can be lost; the first "connecting" is not news.
      useConnection.setState((s) => ({ link, lostAt: link === 'connected' ? null : link === 'reconnecting' ? (s.lostAt ?? Date.now()) : s.lostAt }));
    },
  });
}

export async function reload(): Promise<void> {
  if (!(await loadLanes())) return;
  await Promise.all([loadJobs(useJobs.getState().filter), useTimeline.getState().loaded ? loadTimeline() : null, refreshDetail()]);
}

// ── snapshots ────────────────────────────────────────────────────────────────────────────────
let inFlight = 0;
let held: LanesEvent[] = [];

/** Runs a snapshot request; resolves with it and the events that arrived meanwhile. */
async function snapshot<T extends Snapshot>(request: () => Promise<T>): Promise<{ value: T; meanwhile: LanesEvent[] }> {
  inFlight++;
  const from = held.length;
  try {
    const value = await request();
    return { value, meanwhile: held.slice(from) };
  } finally {
    if (--inFlight === 0) held = [];
  }
}

async function loadLanes(): Promise<boolean> {
  try {
    const { value, meanwhile } = await snapshot(() => client().call('status', {}));
    useLanes.setState((s) => replaceLanes(s, value));
    applyLanes(meanwhile);
    useConnection.setState({ loaded: true, problem: null, engine: { pid: value.pid, version: value.version, dataDir: value.dataDir, startedAt: value.startedAt } });
    return true;
  } catch (error) {
    if (error instanceof LanesError && error.code === 'unauthorized') useConnection.setState({ link: 'unauthorized' });
    useConnection.setState({ problem: messageOf(error) });
    return false;
  }
}

let jobsGeneration = 0;

export async function loadJobs(filter: JobFilter): Promise<void> {
  const generation = ++jobsGeneration;
  useJobs.setState({ filter, loading: true, error: null });
  try {
    const { value, meanwhile } = await snapshot(() => client().call('listJobs', { ...filterInput(filter), limit: PAGE_SIZE }));
    if (generation !== jobsGeneration) return;
    useJobs.setState((s) => ({ seq: value.seq, rows: value.jobs, next: nextOf(filter, value), loading: false, cancelling: settleCancels(s.cancelling, value.jobs) }));
    applyJobs(meanwhile);
    goOnIfShort(value.jobs, nextOf(filter, value), 0);
  } catch (error) {
    if (generation === jobsGeneration) useJobs.setState({ loading: false, error: messageOf(error) });
  }
}

/**
 * The engine looks through a bounded window of jobs per request, so a filtered page can come
 * back short while older matches remain: ask on by itself, a bounded number of times, rather
 * than wait for a scroll that a short list cannot make.
 */
const CONTINUATIONS_MAX = 50;
function goOnIfShort(jobs: readonly unknown[], next: number | null, depth: number): void {
  if (jobs.length < PAGE_SIZE / 2 && next !== null && depth < CONTINUATIONS_MAX) void loadMoreJobs(depth + 1);
}

/** Where the page after this one starts, in the filter's order. */
const nextOf = (filter: JobFilter, page: JobPage): number | null => (filter.order === 'oldest' ? page.nextAfterId : page.nextBeforeId);

export async function loadMoreJobs(depth = 0): Promise<void> {
  const { loading, next, filter } = useJobs.getState();
  if (loading || next === null) return;
  const generation = jobsGeneration;
  useJobs.setState({ loading: true });
  try {
    const from = filter.order === 'oldest' ? { afterId: next } : { beforeId: next };
    const { value, meanwhile } = await snapshot(() => client().call('listJobs', { ...filterInput(filter), ...from, limit: PAGE_SIZE }));
    if (generation !== jobsGeneration) return;
    // The next page is newer than the rows above it: bring those up to it, then go on from there.
    // The rows above already have what arrived meanwhile; the new ones need what came after them.
    // (Oldest first, a job queued meanwhile may be in the page and in the events: keep one.)
    useJobs.setState((s) => {
      const last = s.rows[s.rows.length - 1]?.id;
      const fresh = filter.order === 'oldest' && last !== undefined ? value.jobs.filter((j) => j.id > last) : value.jobs;
      return { rows: s.rows.concat(fresh), next: nextOf(filter, value), loading: false };
    });
    applyJobs(meanwhile, value.seq);
    goOnIfShort(value.jobs, nextOf(filter, value), depth);
  } catch (error) {
    if (generation === jobsGeneration) useJobs.setState({ loading: false, error: messageOf(error) });
  }
}

export async function refreshDetail(): Promise<void> {
  const id = useJobs.getState().selectedId;
  if (id === null) return;
  try {
    const { value, meanwhile } = await snapshot(() => client().call('job', { id }));
    if (useJobs.getState().selectedId !== id) return;
    const { seq, ...job } = value;
    useJobs.setState((s) => ({ detail: job, detailSeq: seq, cancelling: settleCancels(s.cancelling, [job]), log: logForState(s.log, job.state) }));
    applyDetail(meanwhile);
  } catch {
    // The row stays as the list shows it; the next event for it tries again.
  }
}

export async function loadTimeline(): Promise<void> {
  useTimeline.setState({ loading: true });
  try {
    const [points, ledger] = await Promise.all([
      client().call('timeline', { sinceMs: TIMELINE_SPAN_MS }),
      client().call('scaleEvents', { limit: 200 }),
    ]);
    const series: Record<string, TimelinePoint[]> = {};
    for (const t of points) series[t.lane] = t.points;
    useTimeline.setState({ loaded: true, loading: false, error: null, series, ledger: [...ledger].sort((a, b) => b.id - a.id) });
  } catch (error) {
    useTimeline.setState({ loading: false, error: messageOf(error) });
  }
}

// ── live events, one frame at a time ─────────────────────────────────────────────────────────
let queue: LanesEvent[] = [];
let frame = 0;
let fallback: ReturnType<typeof setTimeout> | null = null;
let jobEventHook = () => {};

function enqueue(event: LanesEvent, onJobEvent: () => void): void {
  jobEventHook = onJobEvent;
  queue.push(event);
  if (frame !== 0) return;
  frame = requestAnimationFrame(flush);
  // Hidden windows get no animation frames; still keep up, just less often.
  fallback = setTimeout(flush, 250);
}

function flush(): void {
  cancelAnimationFrame(frame);
  if (fallback) clearTimeout(fallback);
  frame = 0;
  fallback = null;
  const events = queue;
  queue = [];
  if (inFlight > 0) held.push(...events);
  applyLanes(events);
  applyJobs(events);
  if (applyDetail(events)) jobEventHook();
  useTimeline.setState((s) => prependLedger(s, foldEvents(events).scale));
}

function applyLanes(events: readonly LanesEvent[]): void {
  const batch = foldEvents(events, useLanes.getState().seq);
  if (batch.seq === 0) return;
  useLanes.setState((s) => applyLaneEvents(s, batch.seq, batch.lanes, batch.removed, batch));
  useTimeline.setState((s) => appendLanePoints(s, batch.lanes, Date.now()));
  // A lane that is gone cannot be listed: show all lanes rather than an error.
  const { filter } = useJobs.getState();
  if (filter.lane !== null && batch.removed.has(filter.lane)) void loadJobs({ ...filter, lane: null });
}

let headReload: ReturnType<typeof setTimeout> | null = null;

/** Job events after `after` (by default, whatever the rows already reflect). */
function applyJobs(events: readonly LanesEvent[], after = useJobs.getState().seq): void {
  const batch = foldEvents(events, after);
  if (batch.seq === 0) return;
  useJobs.setState((s) => ({ ...applyJobEvents(s, batch.jobs), seq: Math.max(s.seq, batch.seq), cancelling: settleCancels(s.cancelling, batch.jobs) }));
  // Jobs announced in bulk carry no rows: read the top of the list again, at most once a second.
  if (batch.bulk.length > 0 && !headReload) {
    headReload = setTimeout(() => {
      headReload = null;
      void loadJobs(useJobs.getState().filter);
    }, 1_000);
  }
}

/**
 * Events for the open job move its detail's summary; when it finishes, the rest (its answer, its
 * attempts) is read again. True when there were any.
 */
function applyDetail(events: readonly LanesEvent[]): boolean {
  const { selectedId, detailSeq, detail } = useJobs.getState();
  if (selectedId === null) return false;
  let latest: { seq: number; job: JobSummary } | null = null;
  let moved = false;
  for (const e of events) {
    if ((e.type === 'job' || e.type === 'progress') && e.data.id === selectedId && e.seq > detailSeq) {
      latest = { seq: e.seq, job: e.data };
      moved ||= e.type === 'job';
    }
  }
  if (!latest) return false;
  const job = latest.job;
  // A summary without progress has none (a new run): the detail's earlier figure goes with it.
  useJobs.setState((s) => ({ detail: detail && { ...detail, progress: undefined, ...job }, detailSeq: latest.seq, cancelling: settleCancels(s.cancelling, [job]), log: logForState(s.log, job.state) }));
  // How far it has got changes nothing else of the detail; a change of state may have.
  if (moved && latest.job.state !== 'queued' && latest.job.state !== 'running') void refreshDetail();
  return true;
}

function filterInput(filter: JobFilter): { lane?: string; state?: JobState; text?: string; label?: string; order: JobFilter['order']; dependents?: 'after' | 'blocked' | 'excluded' } {
  const text = filter.text.trim();
  const label = labelOf(text);
  const search = label !== null ? { label } : text ? { text } : {};
  // Failed is what ran and failed: the dependents that never ran are Blocked, apart, as counted.
  const dependents = filter.dependents ?? (filter.state === 'failed' ? 'excluded' : null);
  return { ...(filter.lane ? { lane: filter.lane } : {}), ...(filter.state ? { state: filter.state } : {}), ...search, order: filter.order, ...(dependents ? { dependents } : {}) };
}
