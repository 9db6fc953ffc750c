// What a person sees of each lane: its row and counts, the live worker counts, recent figures,
// the mood and the nudge, built from data handed in (nothing here calls back into the fleet).
import type { LaneStatus, LimitReason, NudgeRest, SharedLaneStatus } from '../../../shared/model.js';
import { PACE_AFTER_JOBS } from '../../../shared/limits.js';
import { limitNow } from '../../../shared/limit-now.js';
import type { LaneLimit as MachineLaneLimit } from '../machine/limits.js';
import { withElsewhere } from '../sizer/elsewhere.js';
import { moodOf } from '../sizer/mood.js';
import { grownPast, isQuiet, nudgeDueAt, nudgeFor, type NudgeFacts } from '../sizer/nudge.js';
import { capIsTheLimit } from '../sizer/wants.js';
import { NO_DEMAND, retryingOf, toRunOf, waitingOf, type LaneDemand } from '../sizer/demand.js';
import { estimate, runsLeft } from './eta.js';
import type { RecentFigures } from './recent.js';
import { RATE_WINDOW_S } from './recent-rate.js';
import { pausedNow, settingsOf, type LaneCounts, type LaneRow } from '../store/lanes.js';
import type { WorkerCounts } from '../workers/pool-types.js';

export type { WorkerCounts };

export interface StatusInputs {
  now: number;
  tickMs: number;
  ceiling: number;
  /** Why the ceiling is what it is, in words ("8 cores: 7 workers, one core kept free"). */
  ceilingWhy?: { by: LimitReason; text: string };
  /** What the machine lets each lane run (its memory); a lane missing here has no such limit. */
  laneLimits: ReadonlyMap<string, MachineLaneLimit>;
  lanes: readonly LaneRow[];
  counts: ReadonlyMap<string, LaneCounts>;
  /** Each lane's demand as the last sizing pass computed it (sizer/demand.ts); a lane missing here had none. */
  demand: ReadonlyMap<string, LaneDemand>;
  workers: ReadonlyMap<string, WorkerCounts>;
  /** Worker processes alive across all lanes. */
  machineInUse: number;
  /** A person paused all work: no nudge, and every lane says so. */
  paused: boolean;
}

/** Looked up only for the lanes that need them. */
export interface StatusLookups {
  recent(lane: string, now: number): RecentFigures;
  /** How many times its running jobs' progress moved: the estimate follows it. */
  progressed?(lane: string): number;
  oldestQueuedAt(lane: string): number | undefined;
  /** Of its failed jobs, the dependents that never ran; absent: none counted. */
  blocked?(lane: string): number;
  startsBlockedUntil(lane: string): number | null;
  /** What one of its workers typically holds (bytes); null until measured. */
  workerMemory(lane: string): number | null;
  /** What one of an ml lane's workers typically holds on the GPU (bytes); null until measured. */
  workerGpu?(lane: string): number | null;
  /** A shared lane's queue as last seen; undefined for a local lane. */
  shared?(lane: string): SharedLaneStatus | undefined;
}

const NO_JOBS: LaneCounts = { queued: 0, running: 0, succeeded: 0, failed: 0, cancelled: 0 };
const NO_WORKERS: WorkerCounts = { idle: 0, busy: 0, leaving: 0 };
/** Finished jobs at the current pace before an ETA is given. */
const ETA_AFTER_JOBS = PACE_AFTER_JOBS;

/**
 * What a lane's status is made of, short of the clock: while this stays the same, so does the
 * status, but for what time alone moves (recent rates, a nudge coming due). Null for a shared
 * lane, whose queue as last seen changes without a trace here.
 */
export function statusKey(lane: LaneRow, inputs: StatusInputs, lookups: StatusLookups): string | null {
  if (lane.queue !== null) return null;
  const c = inputs.counts.get(lane.name) ?? NO_JOBS;
  const w = inputs.workers.get(lane.name) ?? NO_WORKERS;
  const m = inputs.laneLimits.get(lane.name);
  const d = inputs.demand.get(lane.name) ?? NO_DEMAND;
  return [
    lane.class, lane.cap, lane.workerCommand?.join('\0'), lane.workerCwd, lane.timeoutMs, lane.nudgeQuietUntil, lane.nudgeQuietBacklog, lane.nudgeQuietWhy,
    c.queued, c.running, c.succeeded, c.failed, c.cancelled, w.idle, w.busy, w.leaving, d.ready, d.inHand, d.notYet, d.afterJobs, d.scheduled, d.scheduledNext,
    m?.limit, m?.limitedBy, m?.text, inputs.ceiling, inputs.ceilingWhy?.text, inputs.machineInUse, inputs.paused, lane.paused?.since, lane.paused?.until, pausedNow(lane, inputs.now) === null, lookups.startsBlockedUntil(lane.name), lookups.workerMemory(lane.name), lookups.workerGpu?.(lane.name),
    lookups.progressed?.(lane.name),
  ].join('|');
}

export function laneStatus(lane: LaneRow, inputs: StatusInputs, lookups: StatusLookups): { status: LaneStatus; dueAt: number | null } {
  const c = inputs.counts.get(lane.name) ?? NO_JOBS;
  const w = inputs.workers.get(lane.name) ?? NO_WORKERS;
  const running = w.idle + w.busy;
  // The lane's demand as the sizing pass computed it (sizer/demand.ts): a person's "waiting" is
  // what is runnable and not started, in a worker's hand or not; what cannot run yet is apart.
  const jobs = inputs.demand.get(lane.name) ?? NO_DEMAND;
  const machine = inputs.laneLimits.get(lane.name);
  // Paused by itself, or with all work: nothing new starts, no outlook, no nudge.
  const own = inputs.paused ? null : pausedNow(lane, inputs.now);
  const paused = inputs.paused || own !== null;
  const demand = { cap: lane.cap, ceiling: inputs.ceiling, limit: machine?.limit, waiting: waitingOf(jobs), busy: w.busy, machineInUse: inputs.machineInUse };
  const oldestQueuedAt = demand.waiting > 0 ? (lookups.oldestQueuedAt(lane.name) ?? null) : null;
  const recent = lookups.recent(lane.name, inputs.now);
  const quiet = quietOf(lane);
  // One pace for the outlook and the nudge's estimate: a single fast job is not a forecast.
  const paced = paceCounts(recent);
  const runFacts = runningFacts(recent, c.running, inputs.now);
  const runs = runsLeft(runFacts);
  const facts = {
    ...demand,
    waitingSince: capIsTheLimit(demand) ? oldestQueuedAt : null,
    now: inputs.now,
    tickMs: inputs.tickMs,
    perMinute: paced ? recent.throughputPerMin : 0,
    quiet,
    limitBy: machine?.limitedBy,
    othersHold: othersHold(lane.name, inputs.workers),
    // What a higher cap buys, from the running jobs' own progress where any of them gives it.
    runs: runs && runs.byProgress > 0 ? runs : null,
  };
  const eta = estimate({
    ...runFacts,
    // What waits for other jobs or for its time counts only once it can run.
    queued: toRunOf(jobs),
    workers: running,
    perMinute: paced ? recent.throughputPerMin : null,
    paused,
    off: lane.cap === 0,
  });
  const status: LaneStatus = {
    ...settingsOf(lane),
    workers: running + w.leaving,
    busy: w.busy,
    idle: w.idle,
    draining: w.leaving,
    waiting: demand.waiting,
    delayed: retryingOf(jobs),
    waitingForJobs: jobs.afterJobs,
    scheduled: jobs.scheduled,
    scheduledNext: jobs.scheduledNext,
    running: c.running,
    succeeded: c.succeeded,
    ...failedApart(c.failed, lookups.blocked?.(lane.name) ?? 0),
    cancelled: c.cancelled,
    throughputPerMin: recent.throughputPerMin,
    finishedLately: recent.finishedLately,
    medianWaitMs: recent.medianWaitMs,
    oldestQueuedAt,
    etaMs: eta.etaMs,
    etaState: eta.etaState,
    workerLoadMs: recent.workerLoadMs,
    mood: moodOf({ ...demand, running, paused }),
    ...nudgeOf(facts, lane, paused),
    startsBlockedUntil: lookups.startsBlockedUntil(lane.name),
    workerMemoryBytes: lookups.workerMemory(lane.name),
    ...gpuCost(lookups.workerGpu?.(lane.name) ?? null),
    limit: heldByMachine(lane.cap, demand.waiting, w, { ...inputs, paused }, machine),
  };
  if (recent.longestReporting) status.longestJob = recent.longestReporting;
  const shared = lookups.shared?.(lane.name);
  if (shared) {
    status.shared = shared;
    status.nudge = withElsewhere(status.nudge, shared.elsewhere);
  }
  if (own) status.paused = own;
  // A lane paused for a while looks again when its pause ends.
  return { status, dueAt: inputs.paused ? null : own ? own.until : nudgeDueAt(facts) };
}

/**
 * The nudge (none while paused), until when a person quieted it, and — where it would speak now
 * were it not quieted — that it rests, until when and why.
 */
function nudgeOf(facts: NudgeFacts, lane: LaneRow, paused: boolean): Pick<LaneStatus, 'nudge' | 'nudgeQuietUntil' | 'nudgeRest'> {
  const quiet = facts.quiet && isQuiet(facts) ? facts.quiet : null;
  const words = { nudge: paused ? null : nudgeFor(facts), nudgeQuietUntil: quiet?.until ?? null };
  if (paused || !quiet || nudgeFor({ ...facts, quiet: null }) === null) return words;
  const nudgeRest: NudgeRest = { until: quiet.until, why: lane.nudgeQuietWhy ?? null, speaksAt: grownPast(quiet.backlog) };
  return { ...words, nudgeRest };
}

/** A dependent that never ran is counted apart from the jobs that ran and failed. */
const failedApart = (failed: number, blocked: number): Pick<LaneStatus, 'failed' | 'blocked'> => ({ failed: failed - blocked, blocked });

/** Until when a person quieted the lane's nudge, and the backlog they saw then; null: not quieted. */
const quietOf = (lane: LaneRow) => (lane.nudgeQuietUntil !== null && lane.nudgeQuietBacklog !== null ? { until: lane.nudgeQuietUntil, backlog: lane.nudgeQuietBacklog } : null);

/** The running jobs as the estimate reads them (status/eta.ts): how long each has run, and what it said of how far it has got. */
function runningFacts(recent: RecentFigures, running: number, now: number) {
  // As this engine saw them start; one it did not see start counts as just begun.
  const since = recent.runningSince.slice(0, running);
  const runningFor = [...since.map((t) => Math.max(0, now - t)), ...Array<number>(Math.max(0, running - since.length)).fill(0)];
  const progress = since.map((t, i) => {
    const m = recent.runningProgress?.[i];
    return m ? { fraction: m.fraction, ranAtMoveMs: Math.max(0, m.movedAt - t), gapMs: m.gapMs } : null;
  });
  return { runningFor, progress, typicalMs: recent.typicalRunMs, longestMs: recent.longestRunMs };
}

/**
 * Whether the live pace is a forecast yet: a few jobs finished, over a stretch of work (since it
 * began, or since a resume) of at least two typical runs, or the whole window. Jobs that start
 * together finish together, so one round into a stretch the pace can be half the true one; till
 * then the outlook stands on the typical run alone.
 */
export function paceCounts(recent: Pick<RecentFigures, 'finishedLately' | 'paceSpanMs' | 'typicalRunMs'>): boolean {
  return recent.finishedLately >= ETA_AFTER_JOBS && recent.paceSpanMs >= Math.min(RATE_WINDOW_S * 1000, 2 * (recent.typicalRunMs ?? 0));
}

/** Workers each other lane holds now (draining ones too: they keep their slot until they go). */
function othersHold(lane: string, workers: ReadonlyMap<string, WorkerCounts>): { lane: string; workers: number }[] {
  return [...workers].flatMap(([name, w]) => (name === lane ? [] : [{ lane: name, workers: w.idle + w.busy + w.leaving }]));
}

/** Named only once measured: a lane that never ran on a GPU shows what it always did. */
const gpuCost = (bytes: number | null): Pick<LaneStatus, 'workerGpuBytes'> => (bytes === null ? {} : { workerGpuBytes: bytes });

/** What holds the lane below its cap now, if anything does (shared/limit-now.ts): named only while it is the limit. */
function heldByMachine(cap: number, waiting: number, w: WorkerCounts, inputs: StatusInputs, m: MachineLaneLimit | undefined): LaneStatus['limit'] {
  const why = inputs.ceilingWhy ?? { by: 'cores' as const, text: `${inputs.ceiling} workers at most` };
  return limitNow({
    cap,
    waiting,
    paused: inputs.paused,
    ceiling: { workers: inputs.ceiling, ...why },
    machineInUse: inputs.machineInUse,
    laneWorkers: w.idle + w.busy + w.leaving,
    own: m ? { workers: m.limit, by: m.limitedBy, text: m.text } : null,
  });
}
