// The questions the engine asks of the queue on every pass: how long a lane's head has waited,
// and which queued jobs cannot run yet. Both read an index's few rows, never the table.
import type { JobStatements } from './job-statements.js';
import type { JobWaits } from './job-waits.js';
import type { NotYet } from './job-types.js';

/**
 * Since when the lane's longest-waiting runnable job has waited; undefined when none waits. A job
 * waits from when it could run: when it was queued, or (ready_at) when its time came or the jobs
 * it runs after succeeded — a delay the person asked for is no wait. The queue's head is in
 * priority order: of the jobs runnable since queued, the oldest is the oldest of each priority's
 * head (usually one); of the others, their own index holds the earliest.
 */
export function oldestQueuedAt(s: JobStatements, lane: string): number | undefined {
  let oldest: number | undefined;
  for (let head = s.plainHeadBelow.get(lane, Number.MAX_SAFE_INTEGER); head; head = s.plainHeadBelow.get(lane, head.priority)) {
    if (oldest === undefined || head.id < oldest) oldest = head.id;
  }
  const queued = oldest === undefined ? undefined : s.createdAt.get(oldest)?.created_at;
  const ready = s.firstReadyAt.get(lane)?.at ?? undefined;
  return queued === undefined ? ready : ready === undefined ? queued : Math.min(queued, ready);
}

/**
 * Per lane, the queued jobs that cannot run yet: retries waiting out their backoff, jobs
 * waiting for other jobs, and jobs scheduled for later; `next` is the soonest moment one of
 * them becomes runnable by time alone.
 */
export function notYetOf(s: JobStatements, waits: JobWaits, now: number): Map<string, NotYet> {
  const all = new Map<string, NotYet>(s.backingOff.all(now).map((r) => [r.lane, { n: r.n, next: r.next, afterJobs: 0, scheduled: 0, scheduledNext: null }]));
  for (const [lane, w] of waits.waits()) {
    const d = all.get(lane) ?? { n: 0, next: null, afterJobs: 0, scheduled: 0, scheduledNext: null };
    all.set(lane, { n: d.n + w.afterJobs + w.scheduled, next: d.next === null ? w.next : w.next === null ? d.next : Math.min(d.next, w.next), afterJobs: w.afterJobs, scheduled: w.scheduled, scheduledNext: w.scheduledNext });
  }
  return all;
}
