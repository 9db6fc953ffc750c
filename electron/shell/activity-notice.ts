// When to tell the person that a batch finished or that jobs failed. Pure: each look at the
// lanes' counters goes in with the moment it was taken, the notices and what to remember come out,
// with the moment to look again (`wakeAt`) when something is waiting to be said.
//
// - A batch: a lane had work (waiting, retrying later or running) and now has none, and it stayed
//   empty for `settleMs` — a script that queues in chunks empties the lane for a moment between
//   them, and that is not the end. Only a burst worth saying: `batchJobs` jobs or more, or two or
//   more over `longMs`; a trickle of single jobs is not a batch. Cancelled jobs do not count
//   towards it (the person who cancelled them knows).
// - Failures: never one per job. The first failure in a lane waits `groupMs` for the rest; what
//   failed meanwhile in any lane goes out with it as one notice; a lane that keeps failing is told
//   again at most every `repeatMs`. A batch ending takes its lane's unsaid failures into its own notice.
// - Dependents that never ran because a job they run after did not succeed (`blocked`, counted
//   apart from `failed`) are said with the failures, in their own words: "2 did not run".
import type { LaneStatus } from '../../shared/model.js';
import { aboutDuration, groupedCount, plural } from '../../shared/format.js';

export type LaneCounts = Pick<LaneStatus, 'name' | 'waiting' | 'delayed' | 'running' | 'succeeded' | 'failed' | 'blocked' | 'cancelled'>;

export interface ActivityNotice {
  kind: 'batch' | 'failed';
  title: string;
  body: string;
}

interface Counts {
  succeeded: number;
  failed: number;
  blocked: number;
  cancelled: number;
}

interface LaneMemory extends Counts {
  /** Work since then, with the counters from just before it; null while the lane has none. */
  burst: { since: number; before: Counts } | null;
  /** The burst's lane has been empty since then; it ends once that has lasted `settleMs`. */
  emptySince: number | null;
  /** Failures not yet said (and dependents that did not run), and when the first of them was seen. */
  unsaid: number;
  unsaidBlocked: number;
  unsaidSince: number | null;
  lastSaidAt: number | null;
}

export interface ActivityMemory {
  readonly lanes: ReadonlyMap<string, LaneMemory>;
}

export const emptyActivityMemory: ActivityMemory = { lanes: new Map() };

export const ACTIVITY_RULES = { settleMs: 3_000, groupMs: 4_000, repeatMs: 60_000, batchJobs: 10, longMs: 2 * 60_000 };
export type ActivityRules = typeof ACTIVITY_RULES;

const countsOf = (lane: Omit<Counts, 'blocked'> & { blocked?: number | undefined }): Counts => ({ succeeded: lane.succeeded, failed: lane.failed, blocked: lane.blocked ?? 0, cancelled: lane.cancelled });
const finished = (c: Counts) => c.succeeded + c.failed + c.blocked + c.cancelled;
const didNotRun = (n: number) => `${groupedCount(n)} did not run`;

/** Worth a notice: enough jobs, or a few over a long time. */
export const isBatch = (jobs: number, ms: number, rules: ActivityRules = ACTIVITY_RULES): boolean =>
  jobs >= rules.batchJobs || (jobs >= 2 && ms >= rules.longMs);

function batchNotice(lane: string, done: Counts, ms: number): ActivityNotice {
  const jobs = done.succeeded + done.failed + done.blocked;
  const cancelled = done.cancelled > 0 ? `, ${groupedCount(done.cancelled)} cancelled` : '';
  const blocked = done.blocked > 0 ? `, ${didNotRun(done.blocked)}` : '';
  const outcome = done.failed + done.blocked === 0 ? `All succeeded${cancelled}` : `${groupedCount(done.succeeded)} succeeded, ${groupedCount(done.failed)} failed${blocked}${cancelled}`;
  return { kind: 'batch', title: `Done: ${plural(jobs, 'job')} in ${lane}`, body: `${outcome} — ${aboutDuration(ms)}.` };
}

function failedNotice(failures: { lane: string; count: number; blocked: number }[]): ActivityNotice {
  const total = failures.reduce((n, f) => n + f.count, 0);
  const blocked = failures.reduce((n, f) => n + f.blocked, 0);
  const [only] = failures;
  // Only dependents (a job they run after was cancelled, say): that is the news.
  const title = (where: string) => (total > 0 ? `${plural(total, 'job')} failed${where}` : `${plural(blocked, 'job')} did not run${where}`);
  const also = total > 0 && blocked > 0 ? `${didNotRun(blocked)}: a job they run after did not succeed. ` : '';
  if (failures.length === 1 && only) return { kind: 'failed', title: title(` in ${only.lane}`), body: `${also}Open Lanes to see why.` };
  const inLane = (f: (typeof failures)[number]) => (total > 0 ? f.count : f.blocked);
  const each = failures.filter((f) => inLane(f) > 0).map((f) => `${groupedCount(inLane(f))} in ${f.lane}`).join(', ');
  return { kind: 'failed', title: title(''), body: `${each}. ${also}Open Lanes to see why.` };
}

export function activityNotices(
  memory: ActivityMemory,
  lanes: readonly LaneCounts[],
  now: number,
  rules: ActivityRules = ACTIVITY_RULES,
): { notices: ActivityNotice[]; memory: ActivityMemory; wakeAt: number | null } {
  const next = new Map<string, LaneMemory>();
  const notices: ActivityNotice[] = [];
  const failures: { lane: string; count: number; blocked: number }[] = [];
  let wakeAt: number | null = null;
  const wake = (at: number) => (wakeAt = wakeAt === null ? at : Math.min(wakeAt, at));

  for (const lane of lanes) {
    const counts = countsOf(lane);
    const outstanding = lane.waiting + lane.delayed + lane.running;
    const prev = memory.lanes.get(lane.name);
    if (!prev) {
      // First sight (a new lane, or the shell just started): what came before is not news.
      next.set(lane.name, { ...counts, burst: outstanding > 0 ? { since: now, before: counts } : null, emptySince: null, unsaid: 0, unsaidBlocked: 0, unsaidSince: null, lastSaidAt: null });
      continue;
    }
    const m: LaneMemory = { ...prev, ...counts };
    // A retry lowers `failed`; only a rise is news.
    const failedNow = Math.max(0, counts.failed - prev.failed);
    const blockedNow = Math.max(0, counts.blocked - prev.blocked);
    if (failedNow + blockedNow > 0) {
      m.unsaid += failedNow;
      m.unsaidBlocked += blockedNow;
      m.unsaidSince ??= now;
    }
    // Jobs queued and finished between two looks still make a burst: the counters moved.
    if (!m.burst && (outstanding > 0 || finished(counts) > finished(prev))) m.burst = { since: now, before: countsOf(prev) };
    if (m.burst && outstanding > 0) m.emptySince = null;
    if (m.burst && outstanding === 0) {
      m.emptySince ??= now;
      if (now - m.emptySince >= rules.settleMs) {
        const b = m.burst.before;
        const done = { succeeded: counts.succeeded - b.succeeded, failed: counts.failed - b.failed, blocked: Math.max(0, counts.blocked - b.blocked), cancelled: counts.cancelled - b.cancelled };
        if (isBatch(done.succeeded + done.failed + done.blocked, m.emptySince - m.burst.since, rules)) {
          notices.push(batchNotice(lane.name, done, m.emptySince - m.burst.since));
          // Its failures are in the batch's notice: do not say them twice.
          m.unsaid = 0;
          m.unsaidBlocked = 0;
          m.unsaidSince = null;
        }
        m.burst = null;
        m.emptySince = null;
      } else {
        wake(m.emptySince + rules.settleMs);
      }
    }
    next.set(lane.name, m);
  }

  // Failures: once one lane's are due, every lane whose own repeat limit allows joins the same
  // notice, rather than following it a second later in one of its own.
  const mayRepeat = (m: LaneMemory) => m.lastSaidAt === null || now >= m.lastSaidAt + rules.repeatMs;
  const unsaid = [...next].filter(([, m]) => m.unsaid + m.unsaidBlocked > 0 && m.unsaidSince !== null);
  const anyDue = unsaid.some(([, m]) => mayRepeat(m) && now >= (m.unsaidSince ?? now) + rules.groupMs);
  for (const [name, m] of unsaid) {
    if (anyDue && mayRepeat(m)) {
      failures.push({ lane: name, count: m.unsaid, blocked: m.unsaidBlocked });
      m.unsaid = 0;
      m.unsaidBlocked = 0;
      m.unsaidSince = null;
      m.lastSaidAt = now;
    } else {
      wake(Math.max((m.unsaidSince ?? now) + rules.groupMs, m.lastSaidAt === null ? -Infinity : m.lastSaidAt + rules.repeatMs));
    }
  }
  // A lane that is gone is forgotten (so is anything unsaid about it), as it is from the menu.
  if (failures.length > 0) notices.push(failedNotice(failures));
  return { notices, memory: { lanes: next }, wakeAt };
}
