// Bulk cancel and retry, a chunk at a time (at most BULK_CHUNK jobs: a request never holds the
// engine for long): these ids, or the next of a lane's. Each chunk is on disk before it returns.
import type { JobState, JobSummary } from '../../../../shared/model.js';
import { toSummary } from '../job-rows.js';
import type { ChunkSelect } from '../job-types.js';
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

/** Jobs in `state` queued again. */
export function retryChunk(c: Change, select: ChunkSelect, state: Extract<JobState, 'failed' | 'cancelled'>): JobSummary[] {
  const rows = 'ids' in select ? c.s.retryIds.all({ ids: JSON.stringify(select.ids), state }) : c.s.retryLane.all({ lane: select.lane, state });
  const jobs = rows.map(toSummary);
  for (const j of jobs) c.moves.push({ lane: j.lane, from: state, to: 'queued' });
  if (jobs.length > 0) c.waits.changed();
  return jobs;
}
