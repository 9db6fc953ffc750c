// What a lane says about itself beyond its mood word: why it is not running anything, and a
// one-line summary of all lanes for when the lanes section is folded. Pure.
import type { LaneStatus } from '../shared/model.js';
import { formatClock, plural } from './format.js';

/**
 * Why a lane does less than a person might expect, or null when the mood word says enough.
 * Most pressing first: a lane whose worker command keeps dying runs nothing whatever its cap.
 */
export function laneReason(lane: LaneStatus, now: number): string | null {
  if (lane.startsBlockedUntil !== null && lane.startsBlockedUntil > now) {
    return `its worker command keeps exiting as it starts — next try at ${formatClock(lane.startsBlockedUntil)}`;
  }
  if (lane.cap === 0) return 'cap 0 — raise the cap to run its jobs';
  if (lane.waiting === 0 && lane.delayed > 0) return `${plural(lane.delayed, 'retry', 'retries')} waiting to run again`;
  return null;
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
