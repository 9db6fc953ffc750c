// How fast a lane gives workers back when demand falls. Growth has no pace: it is immediate.
import type { LaneClass } from '../../../shared/model.js';

/**
 * One idle worker per period. An ml worker holds a loaded model, so giving it back and loading
 * it again a minute later costs far more than keeping it asleep: ml lanes shrink three times slower.
 */
const TICKS_PER_SHRINK: Record<LaneClass, number> = { cpu: 1, ml: 3 };

export const shrinkPeriodMs = (laneClass: LaneClass, tickMs: number): number => TICKS_PER_SHRINK[laneClass] * tickMs;
