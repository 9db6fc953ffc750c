// Following the engine's events from a terminal, for `wait`, `cancel`, `log --follow` and
// `events --follow`. The client resumes across dropped connections; what a command must do
// itself is (re)read what it watches when the feed opens and whenever events were missed.
import type { LanesClient } from '../../shared/client/client.js';
import { LanesError } from '../../shared/errors.js';
import type { LanesEvent } from '../../shared/events.js';
import { LIST_LIMIT_MAX } from '../../shared/limits.js';
import { FINISHED_STATES, isCleaned, summaryOf, type CleanedJob, type FinishedJob, type JobPage, type JobSummary } from '../../shared/model.js';
import { note, printJson } from './context.js';

export interface Watcher {
  /** The feed is open, or events were missed: read what is watched. No event can slip past. */
  read(): Promise<void> | void;
  event(event: LanesEvent): void;
}

/**
 * Follows events until `signal` aborts. Rejects when no engine comes back within `patienceMs`
 * (an engine restarting takes a moment; one that is gone is said so).
 */
export function watch(client: LanesClient, watcher: Watcher, signal: AbortSignal, patienceMs = 30_000): Promise<void> {
  return new Promise((resolve, reject) => {
    let saidLost = false;
    // Read on the first opening; a reconnect resumes where the feed left off and needs none,
    // unless a read was cut short by the engine going away.
    let unread = true;
    let failed: unknown = null;
    const reread = async () => {
      unread = false;
      try {
        await watcher.read();
      } catch (error) {
        if (error instanceof LanesError && error.code === 'unavailable') unread = true;
        else {
          failed = error;
          finish();
        }
      }
    };
    const stop = client.follow(
      0,
      {
        open: () => (unread ? reread() : undefined),
        reset: () => void reread(),
        event: (event) => watcher.event(event),
        link: (state) => {
          if (state !== 'reconnecting' || saidLost) return;
          saidLost = true;
          // Said once, so a terminal that seems to hang explains itself.
          note(`lanes: lost the engine; waiting up to ${Math.round(patienceMs / 1000)}s for it to come back…`);
        },
        lost: (error) => ((failed = error), finish()),
      },
      { patienceMs },
    );
    function finish() {
      stop();
      signal.removeEventListener('abort', finish);
      if (failed) reject(failed);
      else resolve();
    }
    if (signal.aborted) finish();
    else signal.addEventListener('abort', finish);
  });
}

/**
 * Waits for jobs to finish, for `lanes wait` and `lanes cancel` (a running job takes a moment to
 * stop). No polling: each job is read once when the feed opens (and again if events were missed),
 * then only events move it. Resolves with each job's first finished record, in the order of
 * `ids`: a later retry by someone else starts a run this call did not ask about. A job cleaned
 * before it was seen finished is what is kept of it (CleanedJob), nothing filled in.
 */
export async function awaitFinished(client: LanesClient, ids: number[], onFinished: (job: FinishedJob) => void = () => {}): Promise<FinishedJob[]> {
  const wanted = [...new Set(ids)];
  const asked = new Set(wanted);
  const finished = new Map<number, FinishedJob>();
  const stop = new AbortController();
  const record = (job: FinishedJob) => {
    if (!asked.has(job.id) || finished.has(job.id) || !FINISHED_STATES.includes(job.state)) return;
    finished.set(job.id, isCleaned(job) ? job : summaryOf(job));
    onFinished(job);
    if (finished.size === wanted.length) stop.abort();
  };
  const reread = async (which: number[]) => {
    const open = which.filter((id) => !finished.has(id));
    // Many ids close together (a batch from `lanes add --from`): read in pages, not one call each.
    const listed = await listedJobs(client, open);
    for (const job of listed.values()) record(job);
    for (const id of open.filter((id) => !listed.has(id) && !finished.has(id))) record(await jobOrCleaned(client, id));
  };
  await watch(
    client,
    {
      read: () => reread(wanted),
      event: (event) => {
        if (event.type === 'job') record(event.data);
        else if (event.type === 'jobs') void reread(event.data.ids.filter((id) => asked.has(id)));
      },
    },
    stop.signal,
  );
  return wanted.map((id) => finished.get(id)!);
}

/** The engine did not answer (away, or restarting): worth asking again while the feed waits for it. */
export const isUnavailable = (error: unknown): boolean => error instanceof LanesError && error.code === 'unavailable';

/** What is kept of a cleaned job, when `error` is the engine's answer for one (errors.ts); else null. */
export const cleanedIn = (error: unknown): CleanedJob | null => (error instanceof LanesError && error.code === 'not_found' && error.cleaned ? error.cleaned : null);

/**
 * For a command's `.catch`: an answer about a cleaned job is printed as what is kept of it when
 * `json` (the one shape, model.ts), and fails the command in its words either way.
 */
export const jsonOfCleaned =
  (json: boolean | undefined) =>
  (error: unknown): never => {
    const kept = cleanedIn(error);
    if (kept && json) printJson(kept);
    throw error;
  };

/** Fewer ids than this are read one call each; a page holds up to LIST_LIMIT_MAX. */
const PAGED_FROM = 16;

/**
 * The live jobs among `ids`, read oldest first in pages over the span of their ids, when the ids
 * lie close together (no more than 4 listed jobs a wanted one): a wait for 10,000 jobs is 10
 * calls, not 10,000. A job not listed (cleaned, or an id not in the span's order) is read alone.
 */
async function listedJobs(client: LanesClient, ids: number[]): Promise<Map<number, JobSummary>> {
  const found = new Map<number, JobSummary>();
  if (ids.length < PAGED_FROM) return found;
  const wanted = new Set(ids);
  // Not Math.min(...ids): a long enough list of ids is more arguments than a call may take.
  const first = ids.reduce((a, b) => Math.min(a, b));
  const last = ids.reduce((a, b) => Math.max(a, b));
  if (last - first + 1 > 4 * ids.length) return found;
  let afterId: number | null = first - 1;
  while (afterId !== null && afterId < last) {
    const page: JobPage = await client.call('listJobs', { order: 'oldest', afterId, limit: LIST_LIMIT_MAX });
    for (const job of page.jobs) if (wanted.has(job.id)) found.set(job.id, job);
    afterId = page.nextAfterId;
  }
  return found;
}

/**
 * A job as it is now, or, once it was cleaned (retention, `lanes clean`, or a shared queue that
 * dropped it), what is kept of it, as the engine answered with it.
 */
async function jobOrCleaned(client: LanesClient, id: number): Promise<FinishedJob> {
  try {
    return await client.call('job', { id });
  } catch (error) {
    const kept = cleanedIn(error);
    if (!kept) throw error;
    return kept;
  }
}
