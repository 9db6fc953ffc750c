// Requests that quiet things without changing any setting: pausing all work, and quieting a
// lane's nudge. Neither touches a cap.
import type { LanesHandlers } from '../../../shared/requests.js';
import { existingLane, type PausePort } from './context.js';

type PauseHandlers = Pick<LanesHandlers, 'pause' | 'resume' | 'snoozeNudge'>;

/** A dismissed nudge (no time given) stays quiet this long, unless the backlog grows materially. */
export const DISMISS_MS = 24 * 3_600_000;

export function pauseHandlers(e: PausePort): PauseHandlers {
  return {
    pause: (input) => ({ paused: e.pause.pause(input.forSeconds === undefined ? null : Math.round(input.forSeconds * 1000)) }),
    resume: () => {
      e.pause.resume();
      return { paused: null };
    },
    snoozeNudge: (input) => {
      existingLane(e, input.lane);
      const waiting = e.board.lane(input.lane)?.waiting ?? 0;
      const forMs = input.forSeconds === undefined ? DISMISS_MS : Math.round(input.forSeconds * 1000);
      e.lanes.setQuiet(input.lane, { until: Date.now() + forMs, backlog: waiting });
      e.board.announce();
      return { ...e.board.lane(input.lane)!, seq: e.events.lastSeq };
    },
  };
}
