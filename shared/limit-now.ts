// A limit is named only while it is the limit. Each pass the engine derives, from the latest
// reading and the workers that exist, what holds a lane below its cap *now*: nothing while it has
// no work waiting for a worker (idle, paused, every job already running), its own memory or GPU
// only while that allows fewer than the cores leave it, and otherwise the machine's ceiling, with
// what the other lanes' workers take of it. Pure and free of Node: the engine computes
// LaneStatus.limit with it, and the window, the tray and `lanes status` word what it returns
// (limitLine), so none of them can keep a blame the engine has dropped.
import type { LaneLimit, LaneStatus, LimitReason } from './model.js';
import { plural } from './format.js';

/** A limit as the machine judged it for a lane: how many workers, why, in words. */
export interface JudgedLimit {
  workers: number;
  by: LimitReason;
  text: string;
}

export interface LimitNowFacts {
  cap: number;
  /** Runnable jobs no worker has taken yet: what a higher limit would start. */
  waiting: number;
  /** All work is paused: nothing is held back, it is held. */
  paused: boolean;
  /** The most workers all lanes together may run now, and its words ("8 cores: 7 workers, one core kept free"). */
  ceiling: JudgedLimit;
  /** Workers alive in all lanes, and of them this lane's (draining ones included: they hold their slot until they go). */
  machineInUse: number;
  laneWorkers: number;
  /** The lane's own limit (its memory, an ml lane's GPU); null or another reason: none of its own. */
  own: JudgedLimit | null;
}

const OWN: readonly LimitReason[] = ['memory', 'gpu'];

export function limitNow(f: LimitNowFacts): LaneLimit | null {
  if (f.paused || f.waiting <= 0 || f.cap <= 0) return null;
  const others = Math.max(0, f.machineInUse - f.laneWorkers);
  const coresLeave = Math.max(0, f.ceiling.workers - others);
  const own = f.own && OWN.includes(f.own.by) ? f.own : null;
  if (own && own.workers < Math.min(f.cap, coresLeave)) return { workers: own.workers, by: own.by, text: own.text };
  if (coresLeave >= f.cap) return null;
  const text = others > 0 ? `${f.ceiling.text}; other lanes run ${plural(others, 'of them', 'of them')}` : f.ceiling.text;
  return { workers: coresLeave, by: f.ceiling.by, text };
}

/**
 * The line a lane's limit gets where a surface names the lane's own reasons (memory, a GPU's) —
 * the tray's detail and `lanes status`' notes — or null. What the ceiling holds back is said once
 * for the machine, not once per lane.
 */
export function limitLine(lane: Pick<LaneStatus, 'limit'>): string | null {
  const l = lane.limit;
  return l && OWN.includes(l.by) ? l.text : null;
}
