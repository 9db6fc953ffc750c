// What retention keeps, as pure functions (table-tested in test/engine/retention-policy.test.ts):
// how long each finished state is kept (the defaults, or LANES_KEEP for all of them), the
// cut-offs a pass cleans below, and which logs go when all logs together pass their bound.
import { KEEP_SUCCEEDED_MS, KEEP_UNHAPPY_MS } from '../../../shared/limits.js';
import { parseSpan } from '../../../shared/span.js';
import type { FinishedState } from '../store/cleaning.js';

/** How long finished jobs are kept, by their final state. */
export type KeepPolicy = Record<FinishedState, number>;

export const DEFAULT_KEEP: KeepPolicy = { succeeded: KEEP_SUCCEEDED_MS, failed: KEEP_UNHAPPY_MS, cancelled: KEEP_UNHAPPY_MS };

/** LANES_KEEP=SPAN keeps every finished job that long; unset, the defaults. A bad value is refused at start, in words. */
export function keepFromEnv(env: NodeJS.ProcessEnv): KeepPolicy {
  const raw = env.LANES_KEEP;
  if (raw === undefined || raw.trim() === '') return DEFAULT_KEEP;
  const span = parseSpan(raw);
  if ('problem' in span) throw new Error(`LANES_KEEP: ${span.problem}`);
  return { succeeded: span.ms, failed: span.ms, cancelled: span.ms };
}

/** Jobs finished before these moments are past their keep. */
export function cutoffs(keep: KeepPolicy, now: number): KeepPolicy {
  return { succeeded: now - keep.succeeded, failed: now - keep.failed, cancelled: now - keep.cancelled };
}

/** How often a pass runs: often enough that a short keep is kept to, never more than once a minute for a long one. */
export function passEveryMs(keep: KeepPolicy): number {
  const shortest = Math.min(keep.succeeded, keep.failed, keep.cancelled);
  return Math.max(1_000, Math.min(60_000, Math.round(shortest / 4)));
}

/** The longest a Node timer waits; a later moment is looked at again then. */
export const TIMER_MAX_MS = 2 ** 31 - 1;

/**
 * When the next pass runs, in ms from now; null: none until a job finishes. While jobs finish, a
 * pass every `passEveryMs`. Once none has since the last pass, at the first moment anything could
 * be past its keep: nothing finished before the oldest job still held was queued, so not before
 * its queueing plus the shortest keep. No job at all: nothing can come due.
 */
export function nextPassInMs(keep: KeepPolicy, o: { jobsFinished: boolean; oldestQueuedAt: number | null; now: number }): number | null {
  const every = passEveryMs(keep);
  if (o.jobsFinished) return every;
  if (o.oldestQueuedAt === null) return null;
  const shortest = Math.min(keep.succeeded, keep.failed, keep.cancelled);
  return Math.min(TIMER_MAX_MS, Math.max(every, o.oldestQueuedAt + shortest - o.now));
}

export interface SizedLog {
  id: number;
  bytes: number;
}

/**
 * Logs over their bound: the oldest finished jobs' go first (all of a job's files at once), until
 * what is left is within 90 % of the bound, so trimming does not run again at the next byte.
 * A job that is not finished keeps its logs, whatever they weigh. `files`: oldest job first.
 */
export function logsToTrim(files: readonly SizedLog[], finished: ReadonlySet<number>, maxBytes: number): number[] {
  let total = files.reduce((n, f) => n + f.bytes, 0);
  if (total <= maxBytes) return [];
  const target = Math.floor(maxBytes * 0.9);
  const trim: number[] = [];
  for (let i = 0; i < files.length && total > target; ) {
    const id = files[i]!.id;
    let bytes = 0;
    for (; i < files.length && files[i]!.id === id; i++) bytes += files[i]!.bytes;
    if (!finished.has(id)) continue;
    trim.push(id);
    total -= bytes;
  }
  return trim;
}
