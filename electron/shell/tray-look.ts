// How the tray icon looks and what its tooltip says, from the same state the menu is built from.
// One precedence, so the icon never contradicts the menu: error, then a nudge waiting, then
// working, then idle.
import { groupedCount, plural } from '../../shared/format.js';
import type { ShellState } from './shell-state.js';
import { oneLine } from './tray-menu.js';

export type TrayIconState = 'idle' | 'working' | 'nudge' | 'error';
export const TRAY_ICON_STATES: readonly TrayIconState[] = ['idle', 'working', 'nudge', 'error'];

export interface TrayLook {
  icon: TrayIconState;
  /** One line: the OS truncates or hides anything longer. */
  tooltip: string;
}

export function trayLook(state: ShellState): TrayLook {
  const look = lookFor(state);
  // Windows cuts tooltips at 127 characters; every OS shows one line.
  return { ...look, tooltip: oneLine(look.tooltip, 120) };
}

function lookFor(state: ShellState): TrayLook {
  if (state.error) return { icon: 'error', tooltip: `Lanes — not running: ${state.error}` };
  const status = state.status;
  if (!status) return { icon: 'idle', tooltip: state.stopping ? 'Lanes — stopping' : 'Lanes — starting' };

  const busy = status.lanes.reduce((n, lane) => n + lane.busy, 0);
  const waiting = status.lanes.reduce((n, lane) => n + lane.waiting, 0);
  if (state.stopping) {
    const running = status.lanes.reduce((n, lane) => n + lane.running, 0);
    return { icon: running > 0 ? 'working' : 'idle', tooltip: `Lanes — stopping, finishing ${plural(running, 'job')}` };
  }
  const nudged = status.lanes.find((lane) => lane.nudge);
  if (nudged?.nudge) {
    return {
      icon: 'nudge',
      tooltip: `Lanes — raise ${nudged.name} to ${nudged.nudge.suggestedCap}: ${groupedCount(nudged.nudge.waiting)} waiting`,
    };
  }
  if (busy > 0) {
    const tail = waiting > 0 ? `, ${groupedCount(waiting)} waiting` : '';
    return { icon: 'working', tooltip: `Lanes — ${groupedCount(busy)} busy${tail}` };
  }
  if (waiting > 0) return { icon: 'idle', tooltip: `Lanes — idle, ${groupedCount(waiting)} waiting` };
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
