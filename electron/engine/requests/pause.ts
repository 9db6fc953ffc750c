// Requests that quiet things without changing any setting: pausing all work, and quieting a
// lane's nudge. Neither touches a cap.
import type { LanesHandlers } from '../../../shared/requests.js';
import { NUDGE_DISMISS_SECONDS } from '../../../shared/limits.js';
import { existingLane, type PausePort } from './context.js';

type PauseHandlers = Pick<LanesHandlers, 'pause' | 'resume' | 'snoozeNudge'>;


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
      const forMs = Math.round((input.forSeconds ?? NUDGE_DISMISS_SECONDS) * 1000);
      e.lanes.setQuiet(input.lane, { until: Date.now() + forMs, backlog: waiting });
      e.board.announce();
      return { ...e.board.lane(input.lane)!, seq: e.events.lastSeq };
    },
  };
}
