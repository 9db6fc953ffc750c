// `lanes restart` of many finished jobs, a chunk a write: every one of the chunk queued again
// under its own id, or copied as a new job linked to it — or, when one is no longer finished, or
// (in place) runs after a job that can no longer succeed and is not restarted with it, a refusal
// in words and none of the chunk. Each step is one statement over the chunk (job-statements.ts):
// a thousand restarts cost a few statements, not a thousand. Nothing throws, so the other writes
// that share the transaction (group-sync.ts) are never undone for this one.
import type { JobState, JobSummary } from '../../../../shared/model.js';
import { toSummary } from '../job-rows.js';
import { cannotRunAfter } from '../job-waits.js';
import type { Change } from './change.js';

export type Restarted = { jobs: JobSummary[] } | { refused: string };

const FINISHED: readonly (JobState | null)[] = ['succeeded', 'failed', 'cancelled'];

/** How each of these stands now, or the words that refuse the restart when one is no longer finished. */
function finishedStates(c: Change, ids: readonly number[]): Map<number, JobState> | string {
  const states = new Map<number, JobState>();
  for (const [asked, id, , state] of c.s.finishedStates.all(JSON.stringify(ids))) {
    if (id === null || !FINISHED.includes(state)) return `job ${asked} ${id === null ? 'is gone' : `is ${state}`}; only a finished job can be restarted`;
    states.set(id, state!);
  }
  return states;
}

/** The same ids queued again; `together`: the whole restart, whose jobs may be what these run after. */
export function requeueFinishedAll(c: Change, ids: readonly number[], together: ReadonlySet<number> = new Set(ids)): Restarted {
  const from = finishedStates(c, ids);
  if (typeof from === 'string') return { refused: from };
  const [lost] = c.waits.lostDependencies(ids, together);
  if (lost) return { refused: `job ${lost[0]} runs after job ${lost[1].id}: ${cannotRunAfter(lost[1])}` };
  const jobs = c.s.requeueFinished.all({ ids: JSON.stringify(ids), now: Date.now() }).map(toSummary);
  for (const j of jobs) c.moves.push({ lane: j.lane, from: from.get(j.id)!, to: 'queued' });
  if (jobs.length > 0) c.waits.changed();
  return { jobs };
}

/**
 * New jobs with the specs, limits, priorities and labels of these, each linked to the one it
 * restarts, answered in the order asked (an id asked twice is restarted twice). The stored spec
 * is copied as it is: it was checked when it was added, and a worker's claim parses it again.
 */
export function restartAsNew(c: Change, ids: readonly number[], now: number): Restarted {
  const from = finishedStates(c, ids);
  if (typeof from === 'string') return { refused: from };
  const made = new Map<number, JobSummary[]>();
  const rows = c.s.restartAsNew.all(now, JSON.stringify(ids)).map(toSummary);
  // Oldest first: the order they were inserted in, whatever order RETURNING gives them in.
  rows.sort((a, b) => a.id - b.id);
  for (const j of rows) {
    c.moves.push({ lane: j.lane, from: null, to: 'queued' });
    const of = made.get(j.restartOf!);
    if (of) of.push(j);
    else made.set(j.restartOf!, [j]);
  }
  if (rows.some((j) => j.labels !== undefined)) c.s.labelNew.run(JSON.stringify(rows.map((j) => j.id)));
  return { jobs: ids.map((id) => made.get(id)!.shift()!) };
}
