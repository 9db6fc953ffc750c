// Requests about finished work leaving: `clean` removes finished jobs and their logs now (the same
// walk retention makes, retention/retention.ts), `cleanedJob` says what is kept of one that went,
// and a cleaned job read by `job` or `logTail` is answered in words — "job 41 succeeded at 14:02
// and was cleaned at …" — instead of "there is no job 41".
import { cleanedWords } from '../../../shared/format.js';
import type { CleanedJob } from '../../../shared/model.js';
import type { LanesHandlers } from '../../../shared/requests.js';
import { badRequest, LanesError, notFound } from '../../../shared/errors.js';
import type { Retention } from '../retention/retention.js';
import { FINISHED, type FinishedState, type JobCleaner } from '../store/cleaning.js';
import type { LaneStore } from '../store/lanes.js';

type CleanHandlers = Pick<LanesHandlers, 'clean' | 'cleanedJob'>;

/** Only what these requests use. */
export interface CleanPort {
  retention: Pick<Retention, 'clean'>;
  cleaner: Pick<JobCleaner, 'find'>;
  lanes: Pick<LaneStore, 'find'>;
}

export function cleanHandlers(e: CleanPort): CleanHandlers {
  return {
    clean: async (input) => {
      if (input.lane !== undefined) {
        const row = e.lanes.find(input.lane);
        if (!row) throw notFound(`there is no lane named "${input.lane}"`, 'lane');
        // BullMQ keeps a shared lane's finished jobs (the newest 2,000 succeeded, docs/shared-lanes.md).
        if (row.queue) throw badRequest(`lane "${input.lane}" is shared: its queue on Redis keeps its finished jobs, not this engine`, 'lane');
      }
      const states: FinishedState[] = input.state ? [input.state] : [...FINISHED];
      const before = Date.now() - Math.round((input.olderThanSeconds ?? 0) * 1000);
      return e.retention.clean(input.lane, states, before);
    },
    cleanedJob: (input) => {
      const kept = e.cleaner.find(input.id);
      if (!kept) throw notFound(`there is no job ${input.id}`, 'id');
      return kept;
    },
  };
}

/**
 * `job` and `logTail` answer a cleaned job in words: their "there is no job" becomes what it was
 * and when it went. Wrapped around the job handlers rather than written into each of them.
 */
export function answerCleaned<H extends Pick<LanesHandlers, 'job' | 'logTail'>>(handlers: H, cleaner: Pick<JobCleaner, 'find'>): H {
  const words = (id: number, error: unknown, tail = ''): never => {
    const kept = error instanceof LanesError && error.code === 'not_found' && error.field === 'id' ? cleaner.find(id) : undefined;
    if (!kept) throw error;
    // Not the input's fault: no field to name.
    throw notFound(`${cleanedWords(kept as CleanedJob)}${tail}`);
  };
  return {
    ...handlers,
    job: async (input) => {
      try {
        return await handlers.job(input);
      } catch (error) {
        return words(input.id, error);
      }
    },
    logTail: async (input) => {
      try {
        return await handlers.logTail(input);
      } catch (error) {
        return words(input.id, error, '; its log went with it');
      }
    },
  };
}
