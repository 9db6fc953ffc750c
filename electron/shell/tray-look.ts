// How the tray icon looks and what its tooltip says, from the same state the menu is built from.
// One precedence, so the icon never contradicts the menu: error, then a pause (the reason the
// machine is quiet), then a nudge waiting, then working, then idle. Where the tooltip names one
// lane it names the one with the largest backlog: the first lane's "1 waiting" said nothing
// about the lane with 4,666.
import { aboutDuration, groupedCount, plural } from '../../shared/format.js';
import type { LaneStatus, Nudge } from '../../shared/model.js';
import type { ShellState } from './shell-state.js';
import { holdingBack, largestBacklog, notYetWords, oneLine, pausedLabel } from './tray-words.js';

export type TrayIconState = 'idle' | 'working' | 'nudge' | 'paused' | 'error';
export const TRAY_ICON_STATES: readonly TrayIconState[] = ['idle', 'working', 'nudge', 'paused', 'error'];

export interface TrayLook {
  icon: TrayIconState;
  /** One line: the OS truncates or hides anything longer. */
  tooltip: string;
}

/** `now` only words a pause's end. */
export function trayLook(state: ShellState, now: number): TrayLook {
  const look = lookFor(state, now);
  // Windows cuts tooltips at 127 characters; every OS shows one line.
  return { ...look, tooltip: oneLine(look.tooltip, 120) };
}

/**
 * "worker: 4,060 waiting, about 38 min". A lane that is off says so instead, since nothing will
 * clear it; a paused one gives no ETA, since its pace is falling to nothing.
 */
function backlogWords(lane: LaneStatus): string {
  const off = lane.cap === 0 && lane.running === 0;
  const why = off ? ' (off)' : lane.etaState === 'known' && lane.etaMs !== null ? `, ${aboutDuration(lane.etaMs)}` : '';
  return `${lane.name}: ${groupedCount(lane.waiting)} waiting${why}`;
}

/** " · deploy: 1 waiting for other jobs, 1 scheduled for 05:01" for each lane holding what cannot run yet. */
function laterWords(lanes: readonly LaneStatus[], now: number): string {
  return lanes.flatMap((l) => (notYetWords(l, now) ? [` · ${l.name}: ${notYetWords(l, now)}`] : [])).join('');
}

function lookFor(state: ShellState, now: number): TrayLook {
  if (state.error) return { icon: 'error', tooltip: `Lanes — not running: ${state.error}` };
  const status = state.status;
  if (!status) return { icon: 'idle', tooltip: state.stopping ? 'Lanes — stopping' : 'Lanes — starting' };

  const running = status.lanes.reduce((n, lane) => n + lane.running, 0);
  if (state.stopping) {
    return { icon: running > 0 ? 'working' : 'idle', tooltip: `Lanes — stopping, finishing ${plural(running, 'job')}` };
  }
  const largest = largestBacklog(status.lanes);
  const held = holdingBack(status.machine);
  const backlog = (largest ? ` · ${backlogWords(largest)}` : '') + (held ? ` · ${held}` : '');
  if (status.paused) {
    const finishing = running > 0 ? `, finishing ${plural(running, 'job')}` : '';
    return { icon: 'paused', tooltip: `Lanes — ${pausedLabel(status.paused, now).toLowerCase()}${finishing}${backlog}` };
  }
  const nudged = largestBacklog(status.lanes.filter((lane) => lane.nudge));
  if (nudged?.nudge) {
    return {
      icon: 'nudge',
      tooltip: `Lanes — raise ${nudged.name} to ${nudged.nudge.suggestedCap}: ${groupedCount(nudged.nudge.waiting)} waiting${buys(nudged.nudge)}`,
    };
  }
  const later = laterWords(status.lanes, now);
  if (running > 0) return { icon: 'working', tooltip: `Lanes — ${groupedCount(running)} running${backlog}${later}` };
  if (largest) return { icon: 'idle', tooltip: `Lanes — nothing running${backlog}${later}` };
  if (later) return { icon: 'idle', tooltip: `Lanes — nothing running${later}` };
  return { icon: 'idle', tooltip: status.lanes.length === 0 ? 'Lanes — no lanes yet' : 'Lanes — idle' };
}

/**
 * Which file for a state. macOS gets template images (black + alpha; the menu bar recolours
 * them for light and dark) and picks `@2x` itself; Windows picks `@2x` itself from the 16 px file;
 * Linux trays (AppIndicator) scale one image, so they get the 32 px one.
 */
export function trayIconFile(state: TrayIconState, platform: NodeJS.Platform): string {
  if (platform === 'darwin') return `tray-${state}Template.png`;
  if (platform === 'win32') return `tray-${state}.png`;
  return `tray-${state}@2x.png`;
}

/** What the raise buys, from the engine's estimate: ", about 2 h instead of 11 h"; nothing until there is a pace. */
function buys(nudge: Nudge): string {
  return nudge.estimate ? `, ${aboutDuration(nudge.estimate.atSuggestedMs)} instead of ${aboutDuration(nudge.estimate.atCapMs).replace(/^about /, '')}` : '';
}
