// What a lane says about itself beyond its mood word: why it is not running anything, when what it
// holds will be done, how long its oldest job has waited, and a one-line summary of all lanes for
// when the lanes section is folded. Pure.
import type { LaneStatus, Paused } from '../shared/model.js';
import { aboutDuration } from '../shared/format.js';
import { formatClock, formatCount, formatDuration, plural } from './format.js';

/**
 * Why a lane does less than a person might expect, or null when the mood word says enough.
 * Most pressing first: a lane whose worker command keeps dying runs nothing whatever its cap; a
 * pause holds every lane whatever its cap, and says until when.
 */
export function laneReason(lane: LaneStatus, now: number, paused: Paused | null = null): string | null {
  if (lane.startsBlockedUntil !== null && lane.startsBlockedUntil > now) {
    return `its worker command keeps exiting as it starts — next try at ${formatClock(lane.startsBlockedUntil)}`;
  }
  if (paused && lane.cap > 0) return paused.until === null ? 'all work paused until you resume' : `all work paused until ${formatClock(paused.until)}`;
  if (lane.cap === 0) {
    // The built-in ml lane starts off on purpose (a model can take gigabytes): say so, or a person
    // reads "Off" as broken.
    if (lane.class === 'ml' && lane.workerCommand === null) return 'ml lanes start off — raise the cap to run jobs';
    return 'cap 0 — raise the cap to run its jobs';
  }
  if (lane.waiting === 0 && lane.delayed > 0) return `${plural(lane.delayed, 'retry', 'retries')} waiting to run again`;
  return null;
}

/** Jobs the lane still has to finish: waiting, waiting to retry, and running. */
export const jobsLeft = (lane: LaneStatus): number => lane.waiting + lane.delayed + lane.running;

/**
 * "4,533 left, about 38 min": only once the engine has a pace to go by, so a lane that has only
 * just started (or a paused one) does not promise a time it cannot know.
 */
export function laneEta(lane: LaneStatus): string | null {
  const left = jobsLeft(lane);
  if (left === 0 || lane.etaMs === null) return null;
  return `${formatCount(left)} left, ${aboutDuration(lane.etaMs)}`;
}

/**
 * The wait column: how long the oldest job still waiting has waited (so 4,956 waiting never reads
 * "11 s"); with nothing waiting, the median wait of the jobs that started lately.
 */
export function laneWait(lane: LaneStatus, now: number): { text: string; hint: string } {
  if (lane.oldestQueuedAt !== null) {
    return { text: formatDuration(Math.max(0, now - lane.oldestQueuedAt)), hint: `The oldest job still waiting was queued at ${formatClock(lane.oldestQueuedAt)}.` };
  }
  if (lane.medianWaitMs !== null) return { text: formatDuration(lane.medianWaitMs), hint: 'Nothing waits now: the median wait of the jobs that started lately.' };
  return { text: '—', hint: 'Nothing waits now.' };
}

/** The class tag's explanation; an ml lane without a worker command starts each job on its own. */
export function classHint(lane: Pick<LaneStatus, 'class' | 'workerCommand'>): string {
  if (lane.class === 'cpu') return lane.workerCommand ? 'CPU lane with a worker command: each worker takes one payload at a time.' : 'CPU lane: each job runs as its own command.';
  return lane.workerCommand
    ? 'Model lane: each worker loads the model once and takes one payload at a time; workers are given back slowly.'
    : 'Model lane without a worker command: each job runs as its own command and loads its model itself; workers are given back slowly.';
}

/** The folded lanes section in one line: how many, what they do, and whether any could go faster. */
export function lanesSummary(lanes: readonly LaneStatus[]): string {
  let busy = 0;
  let waiting = 0;
  let failed = 0;
  let nudges = 0;
  for (const l of lanes) {
    busy += l.busy;
    waiting += l.waiting;
    failed += l.failed;
    if (l.nudge) nudges++;
  }
  const parts = [plural(lanes.length, 'lane'), `${plural(busy, 'worker')} busy`, `${plural(waiting, 'job')} waiting`];
  if (failed > 0) parts.push(`${plural(failed, 'failed job')}`);
  if (nudges > 0) parts.push(nudges === 1 ? '1 lane could run faster' : `${plural(nudges, 'lane')} could run faster`);
  return parts.join(' · ');
}
