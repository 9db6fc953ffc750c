// What the Add job form's Run after field offers and takes. A person types or pastes ids
// ("41, 42 43"), or searches by command or label; only jobs that can still succeed are offered
// (queued, running, succeeded: the engine refuses to queue a job after one that failed or was
// cancelled, since it would never run), never the job being edited nor one already chosen. The
// rules are pure (table-tested in test/renderer/after-picker.test.ts); after-search.ts asks the engine.
import type { JobState, JobSummary } from '../shared/model.js';

/** At most this many suggestions: a short list to read, not a second job list. */
export const AFTER_OFFERED = 12;
const CAN_SUCCEED: ReadonlySet<JobState> = new Set(['queued', 'running', 'succeeded']);

/** Whether a job after this one could ever run: it has not failed and was not cancelled. */
export const canStillSucceed = (job: Pick<JobSummary, 'state'>): boolean => CAN_SUCCEED.has(job.state);

/** "41", "41, 42 43", "#41": the ids typed or pasted; null when the text is not only ids. */
export function typedIds(text: string): number[] | null {
  const words = text.split(/[\s,;]+/).filter(Boolean);
  if (words.length === 0 || !words.every((w) => /^#?\d{1,15}$/.test(w))) return null;
  const ids = words.map((w) => Number(w.replace('#', ''))).filter((n) => n > 0);
  return ids.length > 0 ? [...new Set(ids)] : null;
}

/** What can be offered, in the order found (newest first), without the job itself or what is chosen. */
export function offered(found: readonly JobSummary[], chosen: readonly number[], self: number | null): JobSummary[] {
  const seen = new Set<number>(chosen);
  if (self !== null) seen.add(self);
  const out: JobSummary[] = [];
  for (const job of found) {
    if (seen.has(job.id) || !canStillSucceed(job)) continue;
    seen.add(job.id);
    out.push(job);
    if (out.length === AFTER_OFFERED) break;
  }
  return out;
}

/** Why a typed id is not offered, in the engine's own terms; null when it can be. */
export function notOffered(job: Pick<JobSummary, 'id' | 'state'>, self: number | null): string | null {
  if (job.id === self) return `job ${job.id} is this job`;
  if (job.state === 'failed') return `job ${job.id} failed, so a job after it would never run`;
  if (job.state === 'cancelled') return `job ${job.id} was cancelled, so a job after it would never run`;
  return null;
}

