// What the desktop notifications say, and when, fed from the shell state: nudges (nudge-notice.ts),
// finished batches and failures (activity-notice.ts). The decisions are pure; this holds their
// memory and the one timer they ask for. The timer is needed because "the lane stayed empty for
// three seconds" and "the failures of the last four seconds" come due when no event arrives.
// Electron only shows what this hands it (notifications.ts).
import type { LaneStatus } from '../../shared/model.js';
import { activityNotices, emptyActivityMemory, type ActivityMemory } from './activity-notice.js';
import { realTimers, type Timers } from './coalesce.js';
import { emptyNoticeMemory, nudgeNotices, type NoticeMemory } from './nudge-notice.js';
import type { ShellStore } from './shell-state.js';

export interface Notice {
  kind: 'nudge' | 'batch' | 'failed';
  title: string;
  body: string;
}

export function noticeFeed(options: { store: ShellStore; show: (notice: Notice) => void; now?: () => number; timers?: Timers }): () => void {
  const now = options.now ?? Date.now;
  const timers = options.timers ?? realTimers;
  let nudges: NoticeMemory = emptyNoticeMemory;
  let activity: ActivityMemory = emptyActivityMemory;
  let lastLanes: readonly LaneStatus[] | null = null;
  let timer: unknown = null;

  const look = (lanes: readonly LaneStatus[], at: number) => {
    const next = activityNotices(activity, lanes, at);
    activity = next.memory;
    for (const notice of next.notices) options.show(notice);
    if (timer !== null) timers.clearTimeout(timer);
    timer = null;
    // Look again with the same lanes when something comes due; a new status sooner replaces this.
    if (next.wakeAt !== null) timer = timers.setTimeout(wakeUp, Math.max(0, next.wakeAt - at));
  };
  const wakeUp = () => {
    timer = null;
    const state = options.store.get();
    if (state.status && !state.stopping && lastLanes) look(lastLanes, now());
  };

  const unsubscribe = options.store.subscribe((state) => {
    // Quitting or not running: nothing finishes that is news, and the counters may not be read.
    if (!state.status || state.stopping) return;
    if (state.status.lanes === lastLanes) return;
    lastLanes = state.status.lanes;
    const at = now();
    const next = nudgeNotices(nudges, lastLanes, at);
    nudges = next.memory;
    for (const notice of next.notices) options.show({ kind: 'nudge', title: notice.title, body: notice.body });
    look(lastLanes, at);
  });

  return () => {
    unsubscribe();
    if (timer !== null) timers.clearTimeout(timer);
    timer = null;
  };
}
