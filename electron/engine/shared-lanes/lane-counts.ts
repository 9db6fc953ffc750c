// A shared lane's counts, read from Redis: BullMQ's own counts of its lists and its lifetime
// metrics, with what Lanes keeps beside them (cancelled jobs, which BullMQ holds as failed, and
// jobs a worker that is not Lanes completed, which did not succeed: outsiders.ts).
import type { LaneCounts } from '../store/counts.js';
import type { LaneParts } from './parts.js';

/** BullMQ's numbers, read from a boundary: anything not a count is 0. */
const n = (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : 0);

export interface SharedCounts {
  counts: LaneCounts;
  /** Delayed jobs not yet due (the rest of the delayed set waits for a pass to promote it). */
  notYet: number;
}

/** One read of the lane's counts, as BullMQ gives them. */
export async function readCounts(p: LaneParts, now: number): Promise<RawCounts> {
  const q = p.queue;
  const [c, due, done, failed, cancelledText] = await Promise.all([
    q.getJobCounts('wait', 'prioritized', 'delayed', 'active'),
    q.getDelayedCount(now),
    q.getMetrics('completed', 0, 0),
    q.getMetrics('failed', 0, 0),
    p.conns.requests.hget(p.key('meta'), 'cancelled'),
  ]);
  return { wait: c.wait, prioritized: c.prioritized, delayed: c.delayed, active: c.active, due, completed: done.meta.count, failed: failed.meta.count, cancelled: Number(cancelledText ?? 0) };
}

export type RawCounts = Record<'wait' | 'prioritized' | 'delayed' | 'active' | 'due' | 'completed' | 'failed' | 'cancelled', unknown>;

/** The lane's counts as Lanes states them, from BullMQ's (pure). */
export function countsOf(raw: RawCounts, outside: number): SharedCounts {
  const cancelled = n(raw.cancelled);
  const delayed = n(raw.delayed);
  return {
    counts: {
      queued: n(raw.wait) + n(raw.prioritized) + delayed,
      running: n(raw.active),
      succeeded: n(raw.completed),
      // A job a worker that is not Lanes completed did not succeed.
      failed: Math.max(0, n(raw.failed) - cancelled) + n(outside),
      cancelled,
    },
    notYet: Math.max(0, delayed - n(raw.due)),
  };
}
