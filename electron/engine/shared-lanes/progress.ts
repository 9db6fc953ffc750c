// How far a job of a shared lane has got, as BullMQ's own progress (`job.updateProgress`), so
// BullMQ's tools and a `QueueEvents` listener see it as they would a BullMQ worker's. Only for a
// job this engine runs now; what Redis answers is nobody's concern but the job's next report.
import type { JobProgress } from '../../../shared/model.js';
import type { LaneParts } from './parts.js';

export function sayProgress(p: LaneParts, id: number, progress: JobProgress): void {
  const h = p.taken.get(id);
  if (!h || h.startedAt === null) return;
  void h.job.updateProgress(progress).catch(() => {});
}
