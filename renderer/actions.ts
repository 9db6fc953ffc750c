// Every change the window makes goes through here: the stores hold data, this module talks to the
// engine. Live events are queued and applied once per animation frame, so a burst of a thousand
// job events costs one render, not a thousand.
import type { LanesBridge, Result } from '../shared/bridge';
import type { RequestInput } from '../shared/requests';
import type { LanesEvent } from '../shared/events';
import type { Job, JobPage, JobState, LogChunk, TimelinePoint } from '../shared/model';
import { createBridge } from './client';
import { foldEvents } from './events';
import { useConnection } from './stores/connection';
import { applyJobEvents, EMPTY_LOG, useJobs, type JobFilter } from './stores/jobs';
import { removeLanes, replaceLanes, setNudges, upsertLanes, useLanes } from './stores/lanes';
import { appendLanePoints, prependLedger, TIMELINE_SPAN_MS, useTimeline } from './stores/timeline';

const PAGE_SIZE = 200;
/** Keep this much of a followed log in memory; the engine keeps the whole (capped) file. */
const LOG_KEEP_CHARS = 256 * 1024;

let bridge: LanesBridge | null = null;

function api(): LanesBridge {
  if (!bridge) throw new Error('start() first');
  return bridge;
}

export function start(): () => void {
  let connectedBefore = false;
  bridge = createBridge((link) => {
    // Only a connection that was up can be lost; the first "connecting" is not news.
    useConnection.setState((s) => ({ link, lostAt: link === 'connected' ? null : link === 'reconnecting' ? (s.lostAt ?? Date.now()) : s.lostAt }));
    // Every reconnection reloads the snapshot (one status request); that also covers an engine
    // that restarted, whose event numbers begin again. The first connection is covered by the
    // load below, unless that load already failed.
    if (link === 'connected' && (connectedBefore || useConnection.getState().problem !== null)) void reload();
    if (link === 'connected') connectedBefore = true;
  });
  const stop = api().subscribe(0, enqueue, () => void reload());
  void reload();
  return stop;
}

export async function reload(): Promise<void> {
  if (!(await loadLanes(true))) return;
  await Promise.all([loadJobs(useJobs.getState().filter), useTimeline.getState().loaded ? loadTimeline() : null, refreshDetail()]);
}

// Events and snapshots race on separate connections: an event can cross a snapshot on the wire,
// and applying either one last could leave a stale number that no later event corrects. So
// lane events seen while a snapshot is in flight earn one more snapshot, and job events seen
// while a page is in flight are applied on top of the page where they move a job forward.
let lanesInFlight = 0;
let lanesCrossed = false;
let jobsInFlight = 0;
let jobsCrossed: Job[] = [];

async function loadLanes(settle: boolean): Promise<boolean> {
  lanesInFlight++;
  lanesCrossed = false;
  const res = await api().request('status', {});
  lanesInFlight--;
  if (!res.ok) {
    useConnection.setState({ problem: res.error.message });
    return false;
  }
  const s = res.value;
  useLanes.setState((state) => replaceLanes(state, s.ceiling, s.lanes));
  useConnection.setState({
    loaded: true,
    problem: null,
    engine: { pid: s.pid, version: s.version, dataDir: s.dataDir, startedAt: s.startedAt },
  });
  if (settle && lanesCrossed) void loadLanes(false);
  return true;
}

async function listJobs(input: RequestInput<'listJobs'>): Promise<Result<JobPage>> {
  if (jobsInFlight++ === 0) jobsCrossed = [];
  try {
    return await api().request('listJobs', input);
  } finally {
    jobsInFlight--;
  }
}

/** After a page lands: the job events that crossed it, where they are news. */
function settleJobs(): void {
  if (jobsInFlight > 0 || jobsCrossed.length === 0) return;
  const crossed = jobsCrossed;
  jobsCrossed = [];
  useJobs.setState((s) => applyJobEvents(s, crossed, true));
}

// ── live events, one frame at a time ─────────────────────────────────────────────────────────
let queue: LanesEvent[] = [];
let frame = 0;
let fallback: ReturnType<typeof setTimeout> | null = null;

function enqueue(event: LanesEvent): void {
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
  const { lanes: laneList, removed, nudges, jobs, scale } = foldEvents(events);
  if (lanesInFlight > 0 && (laneList.length > 0 || nudges.size > 0 || removed.size > 0)) lanesCrossed = true;
  if (jobsInFlight > 0) jobsCrossed.push(...jobs);
  useLanes.setState((s) => upsertLanes(s, laneList));
  useLanes.setState((s) => setNudges(s, nudges));
  useLanes.setState((s) => removeLanes(s, [...removed]));
  useJobs.setState((s) => applyJobEvents(s, jobs));
  useTimeline.setState((s) => ({ ...appendLanePoints(s, laneList, Date.now()), ...prependLedger(s, scale) }));
  const { selectedId: selected, filter } = useJobs.getState();
  if (selected !== null && jobs.some((j) => j.id === selected)) void followLog();
  // A lane that is gone cannot be listed: show all lanes rather than an error.
  if (filter.lane !== null && removed.has(filter.lane)) void setJobFilter({ lane: null });
}

// ── caps ─────────────────────────────────────────────────────────────────────────────────────
const capRequests = new Map<string, number>();

/** Optimistic: the new cap shows at once; if the engine refuses, it goes back and says why. */
export async function setCap(name: string, cap: number): Promise<void> {
  const n = (capRequests.get(name) ?? 0) + 1;
  capRequests.set(name, n);
  useLanes.setState((s) => ({ pendingCap: { ...s.pendingCap, [name]: cap }, capError: without(s.capError, name) }));
  const res = await api().request('setCap', { lane: name, cap });
  // A later change to the same lane supersedes this answer.
  if (capRequests.get(name) !== n) return;
  useLanes.setState((s) => {
    const patch: Partial<typeof s> = { pendingCap: without(s.pendingCap, name) };
    const lane = s.byName[name];
    if (!res.ok) {
      patch.capError = { ...s.capError, [name]: `The cap stays at ${lane?.cap ?? '?'}: ${res.error.message}` };
    } else if (lane) {
      // Take only the cap from the answer: the lane's other numbers may already have moved on in
      // events that overtook it, and this older copy of them would stick until the next event.
      patch.byName = { ...s.byName, [name]: { ...lane, cap: res.value.cap } };
    }
    return patch;
  });
}

export function dismissCapError(lane: string): void {
  useLanes.setState((s) => ({ capError: without(s.capError, lane) }));
}

// ── jobs ─────────────────────────────────────────────────────────────────────────────────────
let jobsGeneration = 0;

export async function loadJobs(filter: JobFilter): Promise<void> {
  const generation = ++jobsGeneration;
  useJobs.setState({ filter, loading: true, error: null });
  const res = await listJobs({ ...filterInput(filter), limit: PAGE_SIZE });
  if (generation !== jobsGeneration) return;
  if (!res.ok) {
    useJobs.setState({ loading: false, error: res.error.message });
    return;
  }
  useJobs.setState({ rows: res.value.jobs, totalAtLoad: res.value.total, nextBeforeId: res.value.nextBeforeId, loading: false });
  settleJobs();
}

export async function loadMoreJobs(): Promise<void> {
  const { loading, nextBeforeId, filter } = useJobs.getState();
  if (loading || nextBeforeId === null) return;
  const generation = jobsGeneration;
  useJobs.setState({ loading: true });
  const res = await listJobs({ ...filterInput(filter), beforeId: nextBeforeId, limit: PAGE_SIZE });
  if (generation !== jobsGeneration) return;
  if (!res.ok) {
    useJobs.setState({ loading: false, error: res.error.message });
    return;
  }
  useJobs.setState((s) => ({ rows: s.rows.concat(res.value.jobs), nextBeforeId: res.value.nextBeforeId, loading: false }));
  settleJobs();
}

export function setJobFilter(patch: Partial<JobFilter>): Promise<void> {
  return loadJobs({ ...useJobs.getState().filter, ...patch });
}

export function selectJob(id: number | null): void {
  const row = id === null ? null : (useJobs.getState().rows.find((j) => j.id === id) ?? null);
  useJobs.setState({ selectedId: id, detail: row, log: EMPTY_LOG, actionError: null });
  void refreshDetail();
}

async function refreshDetail(): Promise<void> {
  const id = useJobs.getState().selectedId;
  if (id === null) return;
  const res = await api().request('job', { id });
  if (useJobs.getState().selectedId !== id) return;
  if (res.ok) useJobs.setState({ detail: res.value });
  await followLog();
}

export function setLogStream(stream: LogChunk['stream']): void {
  useJobs.setState({ log: { ...EMPTY_LOG, stream } });
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
    const res = await api().request('logTail', first ? { id, stream: log.stream } : { id, stream: log.stream, offset: log.nextOffset });
    const now = useJobs.getState();
    if (!res.ok || now.selectedId !== id || now.log.stream !== log.stream) return;
    const c = res.value;
    const text = first ? c.text : now.log.text + c.text;
    useJobs.setState({
      log: { stream: c.stream, text: text.slice(-LOG_KEEP_CHARS), nextOffset: c.nextOffset, truncated: c.truncated || text.length > LOG_KEEP_CHARS, loading: false },
    });
  } finally {
    logInFlight = false;
    if (logAgain) {
      logAgain = false;
      void followLog();
    }
  }
}

export async function cancelJob(id: number): Promise<void> {
  await jobAction('cancel', id);
}

export async function retryJob(id: number): Promise<void> {
  await jobAction('retry', id);
}

async function jobAction(name: 'cancel' | 'retry', id: number): Promise<void> {
  useJobs.setState({ actionError: null });
  const res = await api().request(name, { id });
  // The answer can be older than the job's events: a running job's cancel answers "running" and
  // the outcome follows as an event, which may arrive first. Only let the answer move it forward.
  if (!res.ok) useJobs.setState({ actionError: res.error.message });
  else useJobs.setState((s) => applyJobEvents(s, [res.value], true));
}

// ── timeline ─────────────────────────────────────────────────────────────────────────────────
export async function loadTimeline(): Promise<void> {
  useTimeline.setState({ loading: true });
  const [points, ledger] = await Promise.all([
    api().request('timeline', { sinceMs: TIMELINE_SPAN_MS }),
    api().request('scaleEvents', { limit: 200 }),
  ]);
  if (!points.ok || !ledger.ok) {
    const problem = !points.ok ? points.error.message : !ledger.ok ? ledger.error.message : null;
    useTimeline.setState({ loading: false, error: problem });
    return;
  }
  const series: Record<string, TimelinePoint[]> = {};
  for (const t of points.value) series[t.lane] = t.points;
  useTimeline.setState({ loaded: true, loading: false, error: null, series, ledger: [...ledger.value].sort((a, b) => b.id - a.id) });
}

function filterInput(filter: JobFilter): { lane?: string; state?: JobState } {
  return { ...(filter.lane ? { lane: filter.lane } : {}), ...(filter.state ? { state: filter.state } : {}) };
}

function without<T>(record: Record<string, T>, key: string): Record<string, T> {
  if (!(key in record)) return record;
  const copy = { ...record };
  delete copy[key];
  return copy;
}
