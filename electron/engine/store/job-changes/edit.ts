// Editing a job before it runs: its runnable part replaced whole, as the request handler worked it
// out. Only a job still queued changes; one that started or was cancelled meanwhile is left as it is.
import type { JobSummary } from '../../../../shared/model.js';
import { commandLine, toSummary } from '../job-rows.js';
import type { JobEdit } from '../job-types.js';
import { labelsText, type Change } from './change.js';

/** The job as edited; null when it is no longer queued, and then nothing changed. */
export function edit(c: Change, id: number, e: JobEdit, now: number): JobSummary | null {
  const row = c.s.edit.get({ id, spec: JSON.stringify(e.spec), command: commandLine(e.spec), maxAttempts: e.maxAttempts, timeoutMs: e.timeoutMs, priority: e.priority, notBefore: e.notBefore, labels: labelsText(e.labels) });
  if (!row) return null;
  c.waits.changed();
  return c.waits.link(toSummary(row), e.after, e.labels, now, c.moves);
}
