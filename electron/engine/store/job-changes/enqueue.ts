// Queueing new jobs: each row inserted, scheduled for later when its time has not come, and linked
// to what it runs after and its labels. The store runs it in a group commit: on disk before the
// caller hears of it.
import type { JobSummary } from '../../../../shared/model.js';
import { commandLine, toSummary } from '../job-rows.js';
import type { NewJob } from '../job-types.js';
import { labelsText, type Change } from './change.js';

export function enqueue(c: Change, jobs: readonly NewJob[], now: number): JobSummary[] {
  return jobs.map((j) => {
    c.moves.push({ lane: j.lane, from: null, to: 'queued' });
    const notBefore = j.notBefore !== undefined && j.notBefore !== null && j.notBefore > now ? j.notBefore : null;
    if (notBefore !== null) c.waits.changed();
    const job = toSummary(c.s.insert.get(j.lane, JSON.stringify(j.spec), commandLine(j.spec), j.maxAttempts, j.timeoutMs, now, j.priority ?? 0, notBefore, labelsText(j.labels), j.restartOf ?? null)!);
    return j.after === undefined && j.labels === undefined ? job : c.waits.link(job, j.after, j.labels, now, c.moves);
  });
}
