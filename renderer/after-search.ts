// The Run after field's search: the jobs for what a person typed, from the engine — typed ids
// looked up one by one (a failed, cancelled or missing one is said, not offered), a label, or
// the text in commands. What of it is offered is after-picker.ts's rule.
import type { JobSummary } from '../shared/model.js';
import { summaryOf } from '../shared/model.js';
import { LanesError } from '../shared/errors.js';
import { SEARCH_MAX_CHARS } from '../shared/limits.js';
import { notOffered, typedIds } from './after-picker.js';
import { client, messageOf } from './live.js';
import { labelOf } from './stores/jobs.js';

/** Ids looked up from one paste; more is not a list a person typed. */
const IDS_LOOKED_UP = 20;
/** A page of the newest jobs to pick the offered ones from (failed and cancelled ones are left out). */
const SEARCH_PAGE = 60;

export interface Found {
  /** Newest first, as found; `offered` picks from these. */
  jobs: JobSummary[];
  /** Typed ids that cannot be offered, and why. */
  notes: string[];
}

/**
 * Jobs for what the person typed: ids looked up one by one, `label:NAME` or a word that is a
 * label, and the text in commands; nothing typed, the newest jobs.
 */
export async function findAfter(text: string, self: number | null): Promise<Found> {
  const ids = typedIds(text);
  if (ids) return lookUp(ids.slice(0, IDS_LOOKED_UP), self);
  const q = text.trim().slice(0, SEARCH_MAX_CHARS);
  const label = labelOf(q);
  const pages = await Promise.all([
    label !== null ? page({ label }) : q === '' ? page({}) : page({ text: q }),
    // A plain word may also be a label; the engine refuses what cannot be one, which is no match.
    label === null && q !== '' && !/\s/.test(q) ? page({ label: q }) : Promise.resolve([]),
  ]);
  const byId = new Map<number, JobSummary>();
  for (const job of pages.flat()) byId.set(job.id, job);
  return { jobs: [...byId.values()].sort((a, b) => b.id - a.id), notes: [] };
}

async function page(filter: { text?: string; label?: string }): Promise<JobSummary[]> {
  try {
    return (await client().call('listJobs', { ...filter, limit: SEARCH_PAGE })).jobs;
  } catch (error) {
    if (error instanceof LanesError && error.code === 'bad_request') return [];
    throw error;
  }
}

async function lookUp(ids: number[], self: number | null): Promise<Found> {
  const answers = await Promise.all(
    ids.map(async (id): Promise<JobSummary | string> => {
      try {
        return summaryOf(await client().call('job', { id }));
      } catch (error) {
        // A cleaned job that succeeded still counts as succeeded; its command is not kept.
        const cleaned = error instanceof LanesError ? error.cleaned : undefined;
        if (cleaned?.state === 'succeeded') return { ...cleanedSummary(cleaned), command: '' };
        if (cleaned) return `job ${id} ${cleaned.state === 'failed' ? 'failed' : 'was cancelled'} and has been cleaned, so a job after it would never run`;
        return error instanceof LanesError && error.code === 'not_found' ? `there is no job ${id}` : `job ${id}: ${messageOf(error)}`;
      }
    }),
  );
  const jobs: JobSummary[] = [];
  const notes: string[] = [];
  for (const a of answers) {
    if (typeof a === 'string') notes.push(a);
    else {
      const why = notOffered(a, self);
      if (why) notes.push(why);
      else jobs.push(a);
    }
  }
  return { jobs, notes };
}

function cleanedSummary(c: NonNullable<LanesError['cleaned']>): JobSummary {
  return { id: c.id, lane: c.lane, command: '', state: c.state, attempts: 0, maxAttempts: 0, createdAt: 0, startedAt: null, finishedAt: c.finishedAt, exitCode: c.exitCode, error: null, runAfter: null };
}
