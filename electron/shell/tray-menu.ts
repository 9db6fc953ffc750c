// The tray menu as data: a pure function of the shell's state, every item with a stable id so
// tests (and the smoke test) can find "the cap item 2 of lane ml" without reading labels. Items
// are shaped like Electron's own menu template (same field names), with an `action` where
// Electron has `click`, so turning the model into a template is a plain map and nothing here
// loads Electron.
import type { LaneStatus, Status } from '../../shared/model.js';
import { groupedCount, plural } from '../../shared/format.js';
import type { ShellState } from './shell-state.js';

export type TrayAction =
  | { type: 'setCap'; lane: string; cap: number }
  | { type: 'open' }
  | { type: 'toggleStartAtLogin'; on: boolean }
  | { type: 'retry' }
  | { type: 'quit' }
  | { type: 'quitNow' };

/** One menu item: Electron's MenuItemConstructorOptions fields, `action` instead of `click`. */
export interface TrayItem {
  id: string;
  /** Electron's default is 'normal'. */
  type?: 'normal' | 'separator' | 'submenu' | 'checkbox' | 'radio';
  label?: string;
  checked?: boolean;
  enabled?: boolean;
  submenu?: TrayItem[];
  /** What clicking it does; an item without one does nothing. */
  action?: TrayAction;
}

/** What Electron's Menu.buildFromTemplate takes, as far as the tray uses it. */
export type MenuTemplateItem = Omit<TrayItem, 'submenu' | 'action'> & { submenu?: MenuTemplateItem[]; click?: () => void };

/** One line of at most `max` characters: OS menus and tooltips show no more. */
export function oneLine(text: string, max = 120): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** "worker — 1/1 busy, 4,060 waiting"; a lane at cap 0 says it is off. */
export function laneLine(lane: LaneStatus): string {
  const waiting = lane.waiting > 0 ? `, ${groupedCount(lane.waiting)} waiting` : '';
  if (lane.cap === 0) return `${lane.name} — off (cap 0)${waiting}`;
  return `${lane.name} — ${groupedCount(lane.busy)}/${groupedCount(lane.cap)} busy${waiting}`;
}

/** "Raise ml to 3 — 4,060 waiting". */
export function nudgeLine(lane: LaneStatus): string | null {
  if (!lane.nudge) return null;
  return `Raise ${lane.name} to ${lane.nudge.suggestedCap} — ${groupedCount(lane.nudge.waiting)} waiting`;
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

/** A line that says something and cannot be clicked. */
const line = (id: string, label: string): TrayItem => ({ id, label, enabled: false });

function capItems(lane: LaneStatus, ceiling: number): TrayItem[] {
  // The radio always shows the truth, even a cap above today's ceiling (fewer cores than before).
  const top = Math.max(ceiling, lane.cap);
  const items: TrayItem[] = [];
  for (let cap = 0; cap <= top; cap++) {
    const label = cap === 0 ? '0 — off' : cap === ceiling ? `${cap} — machine ceiling` : String(cap);
    const checked = cap === lane.cap;
    // The checked cap does nothing: setting what is already set would only cost a round trip.
    items.push({ id: itemId.laneCapValue(lane.name, cap), type: 'radio', label, checked, ...(checked ? {} : { action: { type: 'setCap', lane: lane.name, cap } }) });
  }
  return items;
}

function laneItems(status: Status): TrayItem[] {
  if (status.lanes.length === 0) return [line('no-lanes', 'No lanes yet')];
  const items: TrayItem[] = [];
  for (const lane of status.lanes) {
    items.push(line(itemId.laneStatus(lane.name), laneLine(lane)));
    items.push({ id: itemId.laneCap(lane.name), type: 'submenu', label: `Cap: ${lane.cap}`, submenu: capItems(lane, status.ceiling) });
  }
  const nudges = status.lanes.flatMap((lane): TrayItem[] => {
    const label = nudgeLine(lane);
    if (!label || !lane.nudge) return [];
    return [{ id: itemId.laneNudge(lane.name), label, action: { type: 'setCap', lane: lane.name, cap: lane.nudge.suggestedCap } }];
  });
  if (nudges.length > 0) items.push({ id: 'sep-nudges', type: 'separator' }, ...nudges);
  return items;
}

export function trayMenuModel(state: ShellState): TrayItem[] {
  const items: TrayItem[] = [];
  if (state.stopping) {
    const running = state.status?.lanes.reduce((n, lane) => n + lane.running, 0) ?? 0;
    items.push(line(itemId.state, running > 0 ? `Stopping — finishing ${plural(running, 'running job')}…` : 'Stopping…'));
    items.push({ id: itemId.quitNow, label: 'Quit now (running jobs run again next start)', action: { type: 'quitNow' } });
    return items;
  }
  if (state.error) {
    items.push(line(itemId.state, oneLine(`Lanes is not running: ${state.error}`)));
    items.push({ id: itemId.retry, label: 'Try again', action: { type: 'retry' } });
  } else if (!state.status) {
    items.push(line(itemId.state, 'Starting…'));
  } else {
    items.push(...laneItems(state.status));
  }
  items.push({ id: 'sep-app', type: 'separator' });
  items.push({ id: itemId.open, label: 'Open Lanes', action: { type: 'open' } });
  if (state.startAtLoginSupported) {
    items.push({
      id: itemId.startAtLogin,
      type: 'checkbox',
      label: 'Start at login',
      checked: state.startAtLogin,
      action: { type: 'toggleStartAtLogin', on: !state.startAtLogin },
    });
  }
  items.push({ id: 'sep-quit', type: 'separator' });
  items.push({ id: itemId.quit, label: 'Quit Lanes', action: { type: 'quit' } });
  return items;
}

/** Windows and Linux read `&` as a mnemonic marker; a lane named "R&D" must show as written. */
function escapeLabel(label: string): string {
  return label.replace(/&/g, '&&');
}

/** The model as Electron's template: the same items, each action bound to `onClick`. */
export function toMenuTemplate(items: readonly TrayItem[], onClick: (item: TrayItem) => void): MenuTemplateItem[] {
  return items.map((item) => {
    const { submenu, action, label, ...rest } = item;
    return {
      ...rest,
      ...(label === undefined ? {} : { label: escapeLabel(label) }),
      ...(submenu ? { submenu: toMenuTemplate(submenu, onClick) } : {}),
      ...(action ? { click: () => onClick(item) } : {}),
    };
  });
}

/** Depth-first search by id: what tests and the smoke test use instead of labels. */
export function findItem<T extends { id?: string; submenu?: readonly T[] }>(items: readonly T[], id: string): T | undefined {
  for (const item of items) {
    if (item.id === id) return item;
    const nested = item.submenu ? findItem(item.submenu, id) : undefined;
    if (nested) return nested;
  }
  return undefined;
}
