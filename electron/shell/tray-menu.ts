// The tray menu as data: a pure function of the engine's status, every item with a stable id so
// tests (and the smoke test) can find "the cap item 2 of lane ml" without reading labels. Electron
// sees it only through `toMenuTemplate`, which turns actions into click handlers.
import type { MenuItemConstructorOptions } from 'electron';
import type { LaneStatus, Status } from '../../shared/model.js';
import { groupedCount } from '../../shared/format.js';

export type TrayAction =
  | { type: 'setCap'; lane: string; cap: number }
  | { type: 'open' }
  | { type: 'toggleStartAtLogin'; on: boolean }
  | { type: 'retry' }
  | { type: 'quit' }
  | { type: 'quitNow' };

export type TrayItem =
  | { id: string; kind: 'label'; label: string }
  | { id: string; kind: 'action'; label: string; action: TrayAction }
  | { id: string; kind: 'radio'; label: string; checked: boolean; action: TrayAction | null }
  | { id: string; kind: 'checkbox'; label: string; checked: boolean; action: TrayAction }
  | { id: string; kind: 'submenu'; label: string; items: TrayItem[] }
  | { id: string; kind: 'separator' };

/** What the shell knows besides the engine's status. */
export interface ShellState {
  /** null while the engine is starting or when it failed. */
  status: Status | null;
  /** Why the engine is not running, in words. */
  error: string | null;
  /** Quitting: finishing running jobs before the workers stop. */
  stopping: boolean;
  startAtLogin: boolean;
  /** Whether this platform can start the app at login at all. */
  startAtLoginSupported: boolean;
}

/** One line of at most `max` characters: OS menus and tooltips show no more. */
export function oneLine(text: string, max = 120): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export type CountFormat = (n: number) => string;
export const formatCount: CountFormat = groupedCount;

/** "worker — 1/1 busy, 4,060 waiting"; a lane at cap 0 says it is off. */
export function laneLine(lane: LaneStatus, fmt: CountFormat = formatCount): string {
  const waiting = lane.waiting > 0 ? `, ${fmt(lane.waiting)} waiting` : '';
  if (lane.cap === 0) return `${lane.name} — off (cap 0)${waiting}`;
  return `${lane.name} — ${fmt(lane.busy)}/${fmt(lane.cap)} busy${waiting}`;
}

/** "Raise ml to 3 — 4,060 waiting". */
export function nudgeLine(lane: LaneStatus, fmt: CountFormat = formatCount): string | null {
  if (!lane.nudge) return null;
  return `Raise ${lane.name} to ${lane.nudge.suggestedCap} — ${fmt(lane.nudge.waiting)} waiting`;
}

export const itemId = {
  laneStatus: (lane: string) => `lane:${lane}:status`,
  laneCap: (lane: string) => `lane:${lane}:cap`,
  laneCapValue: (lane: string, cap: number) => `lane:${lane}:cap:${cap}`,
  laneNudge: (lane: string) => `lane:${lane}:nudge`,
  open: 'open',
  startAtLogin: 'start-at-login',
  state: 'state',
  retry: 'retry',
  quit: 'quit',
  quitNow: 'quit-now',
} as const;

function capItems(lane: LaneStatus, ceiling: number): TrayItem[] {
  // The radio always shows the truth, even a cap above today's ceiling (fewer cores than before).
  const top = Math.max(ceiling, lane.cap);
  const items: TrayItem[] = [];
  for (let cap = 0; cap <= top; cap++) {
    const label = cap === 0 ? '0 — off' : cap === ceiling ? `${cap} — machine ceiling` : String(cap);
    items.push({
      id: itemId.laneCapValue(lane.name, cap),
      kind: 'radio',
      label,
      checked: cap === lane.cap,
      action: cap === lane.cap ? null : { type: 'setCap', lane: lane.name, cap },
    });
  }
  return items;
}

function laneItems(status: Status, fmt: CountFormat): TrayItem[] {
  if (status.lanes.length === 0) return [{ id: 'no-lanes', kind: 'label', label: 'No lanes yet' }];
  const items: TrayItem[] = [];
  for (const lane of status.lanes) {
    items.push({ id: itemId.laneStatus(lane.name), kind: 'label', label: laneLine(lane, fmt) });
    items.push({ id: itemId.laneCap(lane.name), kind: 'submenu', label: `Cap: ${lane.cap}`, items: capItems(lane, status.ceiling) });
  }
  const nudges = status.lanes.flatMap((lane): TrayItem[] => {
    const label = nudgeLine(lane, fmt);
    if (!label || !lane.nudge) return [];
    return [{ id: itemId.laneNudge(lane.name), kind: 'action', label, action: { type: 'setCap', lane: lane.name, cap: lane.nudge.suggestedCap } }];
  });
  if (nudges.length > 0) items.push({ id: 'sep-nudges', kind: 'separator' }, ...nudges);
  return items;
}

export function trayMenuModel(state: ShellState, fmt: CountFormat = formatCount): TrayItem[] {
  const items: TrayItem[] = [];
  if (state.stopping) {
    const running = state.status?.lanes.reduce((n, lane) => n + lane.running, 0) ?? 0;
    const label = running > 0 ? `Stopping — finishing ${fmt(running)} running job${running === 1 ? '' : 's'}…` : 'Stopping…';
    items.push({ id: itemId.state, kind: 'label', label });
    items.push({ id: itemId.quitNow, kind: 'action', label: 'Quit now (running jobs run again next start)', action: { type: 'quitNow' } });
    return items;
  }
  if (state.error) {
    items.push({ id: itemId.state, kind: 'label', label: oneLine(`Lanes is not running: ${state.error}`) });
    items.push({ id: itemId.retry, kind: 'action', label: 'Try again', action: { type: 'retry' } });
  } else if (!state.status) {
    items.push({ id: itemId.state, kind: 'label', label: 'Starting…' });
  } else {
    items.push(...laneItems(state.status, fmt));
  }
  items.push({ id: 'sep-app', kind: 'separator' });
  items.push({ id: itemId.open, kind: 'action', label: 'Open Lanes', action: { type: 'open' } });
  if (state.startAtLoginSupported) {
    items.push({
      id: itemId.startAtLogin,
      kind: 'checkbox',
      label: 'Start at login',
      checked: state.startAtLogin,
      action: { type: 'toggleStartAtLogin', on: !state.startAtLogin },
    });
  }
  items.push({ id: 'sep-quit', kind: 'separator' });
  items.push({ id: itemId.quit, kind: 'action', label: 'Quit Lanes', action: { type: 'quit' } });
  return items;
}

/** Windows and Linux read `&` as a mnemonic marker; a lane named "R&D" must show as written. */
function escapeLabel(label: string): string {
  return label.replace(/&/g, '&&');
}

export function toMenuTemplate(items: TrayItem[], dispatch: (action: TrayAction) => void): MenuItemConstructorOptions[] {
  return items.map((item): MenuItemConstructorOptions => {
    switch (item.kind) {
      case 'separator':
        return { id: item.id, type: 'separator' };
      case 'label':
        return { id: item.id, label: escapeLabel(item.label), enabled: false };
      case 'action':
        return { id: item.id, label: escapeLabel(item.label), click: () => dispatch(item.action) };
      case 'radio': {
        const action = item.action;
        return { id: item.id, type: 'radio', label: item.label, checked: item.checked, click: action ? () => dispatch(action) : undefined };
      }
      case 'checkbox':
        return { id: item.id, type: 'checkbox', label: item.label, checked: item.checked, click: () => dispatch(item.action) };
      case 'submenu':
        return { id: item.id, label: escapeLabel(item.label), submenu: toMenuTemplate(item.items, dispatch) };
    }
  });
}

/** Depth-first search by id: what tests and the smoke test use instead of labels. */
export function findItem<T extends { id?: string; submenu?: unknown }>(items: readonly T[], id: string): T | undefined {
  for (const item of items) {
    if (item.id === id) return item;
    const nested = Array.isArray(item.submenu) ? findItem(item.submenu as T[], id) : undefined;
    if (nested) return nested;
  }
  return undefined;
}
