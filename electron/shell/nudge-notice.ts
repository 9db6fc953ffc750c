// When to tell the person, with a desktop notification, that raising a cap would help. Once per
// appearance: a nudge that stays is not repeated, one that goes away and comes back is announced
// again — but not within `quietMs` of the last notice for that lane, so a nudge that flickers at
// the threshold does not become a stream of notifications. A snoozed nudge needs nothing here: the
// engine leaves the lane's nudge out while it is quiet, so it is not there to announce.
import type { LaneStatus, Nudge } from '../../shared/model.js';
import { aboutDuration, groupedCount } from '../../shared/format.js';

export interface NudgeNotice {
  lane: string;
  title: string;
  body: string;
  suggestedCap: number;
}

export interface NoticeMemory {
  /** Lanes whose nudge is showing now. */
  readonly active: ReadonlySet<string>;
  /** When each lane was last announced (ms). */
  readonly lastAnnounced: ReadonlyMap<string, number>;
}

export const emptyNoticeMemory: NoticeMemory = { active: new Set(), lastAnnounced: new Map() };
export const DEFAULT_QUIET_MS = 10 * 60_000;

export function noticeFor(lane: string, nudge: Nudge): NudgeNotice {
  // What raising buys, when the engine has a pace to say it by: the reason to act on it.
  const buys = nudge.estimate ? ` At ${nudge.suggestedCap}: ${aboutDuration(nudge.estimate.atSuggestedMs)} instead of ${aboutDuration(nudge.estimate.atCapMs).replace(/^about /, '')}.` : '';
  return {
    lane,
    title: `Raise ${lane} to ${nudge.suggestedCap}?`,
    body: `${groupedCount(nudge.waiting)} waiting, ${nudge.busy} running.${buys} Raise it or snooze it from ${lane}'s tray menu.`,
    suggestedCap: nudge.suggestedCap,
  };
}

export function nudgeNotices(
  memory: NoticeMemory,
  lanes: readonly Pick<LaneStatus, 'name' | 'nudge'>[],
  now: number,
  quietMs = DEFAULT_QUIET_MS,
): { notices: NudgeNotice[]; memory: NoticeMemory } {
  const active = new Set<string>();
  const lastAnnounced = new Map(memory.lastAnnounced);
  const notices: NudgeNotice[] = [];
  for (const lane of lanes) {
    if (!lane.nudge) continue;
    active.add(lane.name);
    if (memory.active.has(lane.name)) continue;
    const last = lastAnnounced.get(lane.name);
    if (last !== undefined && now - last < quietMs) continue;
    lastAnnounced.set(lane.name, now);
    notices.push(noticeFor(lane.name, lane.nudge));
  }
  // Forget removed lanes entirely, so a new lane with an old name starts fresh.
  const names = new Set(lanes.map((lane) => lane.name));
  for (const name of lastAnnounced.keys()) if (!names.has(name)) lastAnnounced.delete(name);
  return { notices, memory: { active, lastAnnounced } };
}
