// Requests that quiet things without changing any setting: pausing all work, and quieting a
// lane's nudge. Neither touches a cap.
import type { LanesHandlers } from '../../../shared/requests.js';
import { NUDGE_DISMISS_SECONDS, TIMEOUT_MAX_SECONDS } from '../../../shared/limits.js';
import { badRequest } from '../../../shared/errors.js';
import { pausedNow } from '../store/lanes.js';
import { existingLane, type PausePort } from './context.js';

type PauseHandlers = Pick<LanesHandlers, 'pause' | 'resume' | 'snoozeNudge'>;


export function pauseHandlers(e: PausePort): PauseHandlers {
  return {
    pause: (input) => {
      const now = Date.now();
      if (input.forSeconds !== undefined && input.until !== undefined) throw badRequest('give forSeconds or until, not both', 'until');
      if (input.until !== undefined && (input.until <= now || input.until - now > TIMEOUT_MAX_SECONDS * 1000)) throw badRequest('until must be a moment in the coming week', 'until');
      const forMs = input.forSeconds !== undefined ? Math.round(input.forSeconds * 1000) : input.until !== undefined ? input.until - now : null;
      if (input.lane === undefined) return { paused: e.pause.pause(forMs, now) };
      // One lane: nothing new starts there, every other lane goes on.
      const lane = existingLane(e, input.lane);
      const paused = { since: pausedNow(lane, now)?.since ?? now, until: forMs === null ? null : now + forMs };
      e.lanes.setPause(input.lane, paused);
      e.fleet.lanesChanged();
      e.board.announce();
      return { paused };
    },
    resume: (input) => {
      if (input.lane === undefined) {
        e.pause.resume();
        return { paused: null };
      }
      existingLane(e, input.lane);
      e.lanes.setPause(input.lane, null);
      e.fleet.lanesChanged();
      e.board.announce();
      return { paused: null };
    },
    snoozeNudge: (input) => {
      existingLane(e, input.lane);
      const waiting = e.board.lane(input.lane)?.waiting ?? 0;
      const forMs = Math.round((input.forSeconds ?? NUDGE_DISMISS_SECONDS) * 1000);
      e.lanes.setQuiet(input.lane, { until: Date.now() + forMs, backlog: waiting, why: input.forSeconds === undefined ? 'dismiss' : 'snooze' });
      e.board.announce();
      return { ...e.board.lane(input.lane)!, seq: e.events.lastSeq };
    },
  };
}
