// The words of a nudge that rests: a lane that would suggest a higher cap now, but a person
// lowered its cap, snoozed or dismissed the nudge a while ago. Said by `lanes status` and the
// window alike, so a quiet nudge is never mistaken for a lane that needs nothing.
import type { NudgeRest } from './model.js';
import { clockMinute, groupedCount } from './format.js';

const BECAUSE: Record<NonNullable<NudgeRest['why']>, string> = {
  cap: 'you lowered the cap',
  snooze: 'you snoozed it',
  dismiss: 'you said not now',
};

/** "nudge resting until 15:30 — you lowered the cap; back sooner if 200 wait". */
export function nudgeRestWords(rest: NudgeRest, now = Date.now()): string {
  const at = clockMinute(rest.until, now);
  const why = rest.why === null ? '' : ` — ${BECAUSE[rest.why]}`;
  return `nudge resting until ${at}${why}; back sooner if ${groupedCount(rest.speaksAt)} wait`;
}
