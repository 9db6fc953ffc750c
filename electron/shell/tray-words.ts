// The words the tray shows for a lane, a nudge and a pause, written once so the menu and the
// tooltip never describe the same thing two ways. Pure: "now" is passed in, never read, because a
// pause's end reads differently today ("15:30") than on another day ("Tue 15:30").
import type { LaneStatus, Nudge, Paused, Status } from '../../shared/model.js';
import { aboutDuration, etaWords, groupedCount } from '../../shared/format.js';
import { limitLine } from '../../shared/limit-now.js';
import { progressCount } from '../../shared/progress.js';

/** One line of at most `max` characters: OS menus and tooltips show no more. */
export function oneLine(text: string, max = 120): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * What a lane holds that cannot run yet, apart from what waits for a worker: "1 waiting for
 * other jobs, 2 scheduled, the next at 05:01"; empty when it holds none.
 */
export function notYetWords(lane: Pick<LaneStatus, 'waitingForJobs' | 'scheduled' | 'scheduledNext'>, now: number): string {
  const parts: string[] = [];
  if (lane.waitingForJobs > 0) parts.push(`${groupedCount(lane.waitingForJobs)} waiting for other jobs`);
  if (lane.scheduled > 0) {
    const next = lane.scheduledNext === null ? '' : lane.scheduled === 1 ? ` for ${clockTime(lane.scheduledNext, now)}` : `, the next at ${clockTime(lane.scheduledNext, now)}`;
    parts.push(`${groupedCount(lane.scheduled)} scheduled${next}`);
  }
  return parts.join(', ');
}

/**
 * What a lane is doing, in the words of its submenu's title: "worker — 3 running, 4,060 waiting",
 * "ml — off", "thumbs — idle", "deploy — 1 waiting for other jobs, 1 scheduled for 05:01". A lane
 * at cap 0 says off first, whatever waits, because that is why nothing runs; what cannot run yet
 * is named after what runs and waits, so a lane holding only that never reads "idle"; a nudge is
 * named in the title so the person knows which submenu to open.
 */
export function laneTitle(lane: LaneStatus, now: number = Date.now()): string {
  const waiting = lane.waiting > 0 ? `${groupedCount(lane.waiting)} waiting` : '';
  const later = notYetWords(lane, now);
  let state: string;
  if (lane.cap === 0 && lane.running === 0) state = ['off', waiting, later].filter(Boolean).join(', ');
  else if (lane.running > 0) state = [`${groupedCount(lane.running)} running${longestWords(lane)}`, waiting, later].filter(Boolean).join(', ');
  else if (lane.mood === 'paused' && (waiting || later)) state = ['paused', waiting, later].filter(Boolean).join(', ');
  else state = [waiting, later].filter(Boolean).join(', ') || 'idle';
  const nudge = lane.nudge ? ` · raise to ${lane.nudge.suggestedCap}?` : '';
  return `${lane.name} — ${state}${nudge}`;
}

/**
 * How far its longest-running job says it has got, after the running count: " (12,000 of
 * 40,000)" for its one job, " (the longest at 30 %)" among several; nothing when none says.
 */
function longestWords(lane: Pick<LaneStatus, 'running' | 'longestJob'>): string {
  const p = lane.longestJob?.progress;
  if (!p) return '';
  return lane.running === 1 ? ` (${progressCount(p)})` : ` (the longest at ${progressCount(p)})`;
}

/**
 * The lane's numbers a person judges a cap by, or null when there are none worth a line:
 * "150 done / min · 4,533 left, about 38 min · 3 failed".
 */
export function laneDetail(lane: LaneStatus): string | null {
  const parts: string[] = [];
  if (lane.throughputPerMin > 0) parts.push(`${groupedCount(Math.round(lane.throughputPerMin))} done / min`);
  // The one estimate rule (shared/format.ts): "estimating…" until the engine has one, none while paused.
  const eta = etaWords(lane);
  if (eta) parts.push(eta);
  if (lane.delayed > 0) parts.push(`${groupedCount(lane.delayed)} retrying later`);
  if (lane.failed > 0) parts.push(`${groupedCount(lane.failed)} failed`);
  // Dependents that never ran are not failures of theirs: counted apart.
  if ((lane.blocked ?? 0) > 0) parts.push(`${groupedCount(lane.blocked!)} did not run`);
  // The machine, not the cap, holds it back (its memory, or a GPU's): the person should not raise the cap for nothing.
  const limit = limitLine(lane);
  if (limit) parts.push(limit);
  return parts.length > 0 ? parts.join(' · ') : null;
}

/** "Raise to 3 — about 12 min instead of 38 min", or with no pace yet "Raise to 3 — 4,060 waiting". */
export function raiseLabel(nudge: Nudge): string {
  const head = `Raise to ${nudge.suggestedCap}`;
  if (!nudge.estimate) return `${head} — ${groupedCount(nudge.waiting)} waiting`;
  const atCap = aboutDuration(nudge.estimate.atCapMs).replace(/^about /, '');
  return `${head} — ${aboutDuration(nudge.estimate.atSuggestedMs)} instead of ${atCap}`;
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const HOUR_MS = 3_600_000;

/**
 * A moment ahead as a clock on the wall shows it, in local time: "15:30" when it is within the
 * next 12 hours (a pause for an hour at 23:30 ends "00:30", not "tomorrow 00:30"), "Tue 15:30"
 * within the week, "3 Jun 15:30" beyond. Fixed English names, like every other word of the tray.
 */
export function clockTime(at: number, now: number): string {
  const d = new Date(at);
  const hm = `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
  if (at - now < 12 * HOUR_MS) return hm;
  if (at - now < 6 * 24 * HOUR_MS) return `${DAYS[d.getDay()]} ${hm}`;
  return `${d.getDate()} ${MONTHS[d.getMonth()]} ${hm}`;
}

/** "Paused until 15:30", "Paused until you resume". */
export function pausedLabel(paused: Paused, now: number): string {
  return paused.until === null ? 'Paused until you resume' : `Paused until ${clockTime(paused.until, now)}`;
}

/** What holds Lanes back, when something other than the cores does: "quiet: on battery". Null otherwise. */
export function holdingBack(machine: Status['machine']): string | null {
  return machine.limitedBy === 'cores' ? null : machine.text;
}

/** The lane with the most waiting (the first such, on a tie); null when nothing waits anywhere. */
export function largestBacklog<T extends Pick<LaneStatus, 'waiting'>>(lanes: readonly T[]): T | null {
  let best: T | null = null;
  for (const lane of lanes) if (lane.waiting > 0 && (!best || lane.waiting > best.waiting)) best = lane;
  return best;
}
