// How fast a lane gives workers back when demand falls. Growth has no pace: it is immediate.
import type { LaneClass } from '../../../shared/model.js';

/**
 * One idle worker per period. An ml worker holds a loaded model, so giving it back and loading
 * it again a minute later costs far more than keeping it asleep: ml lanes shrink three times slower.
 */
const TICKS_PER_SHRINK: Record<LaneClass, number> = { cpu: 1, ml: 3 };

export const shrinkPeriodMs = (laneClass: LaneClass, tickMs: number): number => TICKS_PER_SHRINK[laneClass] * tickMs;

/**
 * How long a lane keeps its worker when more lanes want the machine than it has workers, before
 * it yields to one that waits. A shell lane's worker just goes on to the other lane's next job, so
 * its turns can be short; a persistent lane's worker must stop, and another load its command.
 */
export const turnMs = (l: { movable: boolean; class: LaneClass }): number => (l.movable ? 2_000 : l.class === 'ml' ? 60_000 : 15_000);
