// Bulk cancel and retry, a chunk at a time (at most BULK_CHUNK jobs: a request never holds the
// engine for long): these ids, or the next of a lane's. Each chunk is on disk before it returns.
import type { JobState, JobSummary } from '../../../../shared/model.js';
import { toSummary } from '../job-rows.js';
import type { ChunkSelect, RetriedChunk } from '../job-types.js';
import type { Change } from './change.js';

/** Queued jobs cancelled, leaving those in workers' hands (`skip`) to their workers; empty when none are left. */
export function cancelQueuedChunk(c: Change, select: ChunkSelect, skip: readonly number[], now: number): JobSummary[] {
  const rows = 'ids' in select ? c.s.cancelQueuedIds.all({ now, ids: JSON.stringify(select.ids), skip: JSON.stringify(skip) }) : c.s.cancelQueuedLane.all({ now, lane: select.lane, skip: JSON.stringify(skip) });
  const jobs = rows.map(toSummary);
  for (const j of jobs) c.moves.push({ lane: j.lane, from: 'queued', to: 'cancelled' });
  for (const j of jobs) c.ends(j);
  if (jobs.length > 0) c.waits.changed();
  return jobs;
}

/**
 * Failed or cancelled jobs queued again: these ids (in any of `states`), or a lane's next chunk in
 * `states[0]` after `afterId`. A job that runs after one that can no longer succeed is left as it
 * is and counted as refused — unless that job is queued again in the same chunk (a chain retried
 * together runs in order, whichever way each of it ended).
 */
export function retryChunk(c: Change, select: ChunkSelect, states: readonly Extract<JobState, 'failed' | 'cancelled'>[], afterId = 0): RetriedChunk {
  const candidates = 'ids' in select ? c.s.retryableIds.all({ ids: JSON.stringify(select.ids), states: JSON.stringify(states) }) : c.s.retryableLane.all({ lane: select.lane, state: states[0]!, after: afterId });
  const ids = candidates.map((r) => r.id);
  const lost = c.waits.lostDependencies(ids, new Set(ids));
  const from = new Map(candidates.map((r) => [r.id, r.state]));
  const allowed = ids.filter((id) => !lost.has(id));
  const jobs = allowed.length === 0 ? [] : c.s.retryIds.all({ ids: JSON.stringify(allowed), now: Date.now() }).map(toSummary);
  for (const j of jobs) c.moves.push({ lane: j.lane, from: from.get(j.id)!, to: 'queued' });
  if (jobs.length > 0) c.waits.changed();
  return { jobs, refused: lost.size, next: 'lane' in select && ids.length > 0 ? ids.at(-1)! : null };
}
