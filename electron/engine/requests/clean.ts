// Requests about finished work leaving: `clean` removes finished jobs and their logs now (the same
// walk retention makes, retention/retention.ts), `cleanedJob` says what is kept of one that went,
// and every request about a cleaned job — `job`, `logTail`, `cancel`, `retry`, `editJob`,
// `restartJobs` — answers it one way (`jobOrGone`): not_found in its own words, "job 41
// succeeded at 14:02 and was cleaned at …", carrying what is kept of it (CleanedJob, and nothing
// invented beside it), instead of "there is no job 41".
import { cleanedWords } from '../../../shared/format.js';
import type { CleanedJob } from '../../../shared/model.js';
import type { LanesHandlers } from '../../../shared/requests.js';
import { badRequest, cleanedJob, LanesError, notFound } from '../../../shared/errors.js';
import type { Maybe } from '../queues/queue.js';
import type { Retention } from '../retention/retention.js';
import { FINISHED, type FinishedState, type JobCleaner } from '../store/cleaning.js';
import type { LaneStore } from '../store/lanes.js';
import { existingLane } from './context.js';

type CleanHandlers = Pick<LanesHandlers, 'clean' | 'cleanedJob'>;

/** Only what these requests use. */
export interface CleanPort {
  retention: Pick<Retention, 'clean'>;
  cleaner: Pick<JobCleaner, 'find'>;
  lanes: Pick<LaneStore, 'find' | 'list'>;
}

/** The answer to a request about job `id`, which is not there: what is kept of it if it was cleaned, else "there is no job". */
export function missingJob(cleaner: Pick<JobCleaner, 'find'>, id: number, field = 'id', tail = ''): LanesError {
  const kept = cleaner.find(id);
  if (!kept) return notFound(`there is no job ${id}`, field);
  const record: CleanedJob = { id: kept.id, lane: kept.lane, state: kept.state, exitCode: kept.exitCode, finishedAt: kept.finishedAt, cleanedAt: kept.cleanedAt };
  // Not the input's fault: no field to name.
  return cleanedJob(`${cleanedWords(record)}${tail}`, record);
}

/**
 * Job `id` as `read` finds it; if it is not there (or its store does not know it: a shared lane
 * this engine has not joined), the answer `missingJob` gives.
 */
export async function jobOrGone<T>(cleaner: Pick<JobCleaner, 'find'>, id: number, read: () => Maybe<T | undefined>, field = 'id', tail = ''): Promise<T> {
  let found: T | undefined;
  try {
    found = await read();
  } catch (error) {
    if (error instanceof LanesError && error.code === 'not_found' && cleaner.find(id)) throw missingJob(cleaner, id, field, tail);
    throw error;
  }
  if (found === undefined) throw missingJob(cleaner, id, field, tail);
  return found;
}

export function cleanHandlers(e: CleanPort): CleanHandlers {
  return {
    clean: async (input) => {
      if (input.lane !== undefined) {
        // A typo gets the lane it most likely meant, as every other request that names a lane does.
        const row = existingLane(e, input.lane);
        // BullMQ keeps a shared lane's finished jobs (the newest 2,000 succeeded, docs/shared-lanes.md).
        if (row.queue) throw badRequest(`lane "${input.lane}" is shared: its queue on Redis keeps its finished jobs, not this engine`, 'lane');
      }
      const states: FinishedState[] = input.state ? [input.state] : [...FINISHED];
      // A job that finished in this very millisecond is finished before "now" too.
      const before = Date.now() + 1 - Math.round((input.olderThanSeconds ?? 0) * 1000);
      return e.retention.clean(input.lane, states, before);
    },
    cleanedJob: (input) => {
      const kept = e.cleaner.find(input.id);
      if (!kept) throw notFound(`there is no job ${input.id}`, 'id');
      return kept;
    },
  };
}
