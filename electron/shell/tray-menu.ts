// The tray menu as data: a pure function of the shell's state, every item with a stable id so
// tests (and the smoke test) can find "the cap item 2 of lane ml" without reading labels. Items
// are shaped like Electron's own menu template (same field names), with an `action` where
// Electron has `click`, so turning the model into a template is a plain map and nothing here
// loads Electron. Each lane is one submenu titled with its name and state, holding everything
// about that lane: five bare "Cap: N" submenus that did not name their lane could not be told apart.
import type { LaneStatus, Paused } from '../../shared/model.js';
import { plural } from '../../shared/format.js';
import { NUDGE_DISMISS_SECONDS } from '../../shared/limits.js';
import { gpuLines } from '../../shared/gpu-words.js';
import { PAUSE_SPANS, pauseKey, TOMORROW_HOUR } from '../../shared/pause-spans.js';
import type { ShellState } from './shell-state.js';
import { clockTime, holdingBack, laneDetail, laneTitle, oneLine, pausedLabel, raiseLabel } from './tray-words.js';

export type TrayAction =
  | { type: 'setCap'; lane: string; cap: number }
  | { type: 'snoozeNudge'; lane: string; forSeconds: number }
  /** No span: until resumed; `tomorrow`: until 08:00 tomorrow, reckoned when clicked. `lane`: that lane only. */
  | { type: 'pause'; forSeconds?: number; tomorrow?: boolean; lane?: string }
  | { type: 'resume'; lane?: string }
  | { type: 'open' }
  | { type: 'toggleStartAtLogin'; on: boolean }
  | { type: 'installCli' }
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

/** "Snooze for a day": as long as the engine keeps a dismissed nudge quiet, so the label stays true. */
export const SNOOZE_SECONDS = NUDGE_DISMISS_SECONDS;
/** "Pause all → For 1 hour": one of the spans every door offers (shared/pause-spans.ts). */
export const PAUSE_HOUR_SECONDS = PAUSE_SPANS.find((s) => pauseKey(s) === '1h')!.seconds;

export const itemId = {
  holdingBack: 'holding-back',
  /** One line per GPU (or one saying where GPU memory comes from); none where it is not known. */
  gpu: (n: number) => `gpu:${n}`,
  /** The lane's submenu, titled with its name and state. */
  lane: (lane: string) => `lane:${lane}`,
  laneDetail: (lane: string) => `lane:${lane}:detail`,
  laneCapValue: (lane: string, cap: number) => `lane:${lane}:cap:${cap}`,
  laneNudge: (lane: string) => `lane:${lane}:nudge`,
  laneSnooze: (lane: string) => `lane:${lane}:snooze`,
  paused: 'paused',
  resume: 'resume',
  pauseAll: 'pause-all',
  pauseHour: 'pause-all:hour',
  pauseUntilResumed: 'pause-all:until-resumed',
  /** Every span "Pause all" offers, by its key (PAUSE_CHOICES). */
  pauseFor: (key: string) => (key === '1h' ? 'pause-all:hour' : key === 'until-resumed' ? 'pause-all:until-resumed' : `pause-all:${key}`),
  lanePause: (lane: string) => `lane:${lane}:pause`,
  lanePauseFor: (lane: string, key: string) => `lane:${lane}:pause:${key}`,
  lanePaused: (lane: string) => `lane:${lane}:paused`,
  laneResume: (lane: string) => `lane:${lane}:resume`,
  open: 'open',
  startAtLogin: 'start-at-login',
  installCli: 'install-cli',
  state: 'state',
  retry: 'retry',
  quit: 'quit',
  quitNow: 'quit-now',
} as const;

/** A line that says something and cannot be clicked. */
const line = (id: string, label: string): TrayItem => ({ id, label, enabled: false });
const separator = (id: string): TrayItem => ({ id, type: 'separator' });

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

/** A lane's submenu: its numbers, its nudge (raise or snooze), then its cap choices. */
function laneMenu(lane: LaneStatus, ceiling: number, now: number, allPaused = false): TrayItem {
  const items: TrayItem[] = [];
  const detail = laneDetail(lane);
  if (detail) items.push(line(itemId.laneDetail(lane.name), detail), separator(`lane:${lane.name}:sep-detail`));
  if (lane.nudge) {
    items.push(
      { id: itemId.laneNudge(lane.name), label: raiseLabel(lane.nudge), action: { type: 'setCap', lane: lane.name, cap: lane.nudge.suggestedCap } },
      { id: itemId.laneSnooze(lane.name), label: 'Snooze for a day', action: { type: 'snoozeNudge', lane: lane.name, forSeconds: SNOOZE_SECONDS } },
      separator(`lane:${lane.name}:sep-nudge`),
    );
  }
  items.push(...lanePauseItems(lane, now, allPaused));
  items.push(line(`lane:${lane.name}:cap`, 'Cap — how many run at once'), ...capItems(lane, ceiling));
  return { id: itemId.lane(lane.name), type: 'submenu', label: laneTitle(lane, now), submenu: items };
}

/** At the top while paused, since it is why nothing starts; otherwise a submenu beside Open Lanes. */
function pauseItems(paused: Paused | null, now: number): { top: TrayItem[]; control: TrayItem[] } {
  if (paused) {
    return {
      top: [line(itemId.paused, pausedLabel(paused, now)), { id: itemId.resume, label: 'Resume', action: { type: 'resume' } }, separator('sep-paused')],
      control: [],
    };
  }
  const submenu = PAUSE_CHOICES.map((c): TrayItem => ({ id: itemId.pauseFor(c.key), label: c.label, action: { type: 'pause', ...c.span } }));
  return { top: [], control: [{ id: itemId.pauseAll, type: 'submenu', label: 'Pause all', submenu }] };
}

/** The spans a pause is offered for, all work's or one lane's, in the tray's words: the window's list (shared/pause-spans.ts), then tomorrow and until resumed. */
export const PAUSE_CHOICES: readonly { key: string; label: string; span: { forSeconds?: number; tomorrow?: boolean } }[] = [
  ...PAUSE_SPANS.map((s) => ({ key: pauseKey(s), label: `For ${s.label}`, span: { forSeconds: s.seconds } })),
  { key: 'tomorrow', label: `Until tomorrow, ${String(TOMORROW_HOUR).padStart(2, '0')}:00`, span: { tomorrow: true } },
  { key: 'until-resumed', label: 'Until I resume', span: {} },
];

/** A lane's own pause: until when and Resume while it lasts, else the spans to pause it for. */
function lanePauseItems(lane: LaneStatus, now: number, allPaused: boolean): TrayItem[] {
  if (lane.paused) {
    const label = lane.paused.until === null ? 'This lane paused until you resume it' : `This lane paused until ${clockTime(lane.paused.until, now)}`;
    return [line(itemId.lanePaused(lane.name), label), { id: itemId.laneResume(lane.name), label: 'Resume this lane', action: { type: 'resume', lane: lane.name } }, separator(`lane:${lane.name}:sep-pause`)];
  }
  // All work paused already holds it: a pause of its own would say nothing more.
  if (allPaused) return [];
  const submenu = PAUSE_CHOICES.map((c): TrayItem => ({ id: itemId.lanePauseFor(lane.name, c.key), label: c.label, action: { type: 'pause', lane: lane.name, ...c.span } }));
  return [{ id: itemId.lanePause(lane.name), type: 'submenu', label: 'Pause this lane', submenu }, separator(`lane:${lane.name}:sep-pause`)];
}

/** The whole menu for the shell's state; `now` only words a pause's end. */
export function trayMenuModel(state: ShellState, now: number): TrayItem[] {
  const items: TrayItem[] = [];
  if (state.stopping) {
    const running = state.status?.lanes.reduce((n, lane) => n + lane.running, 0) ?? 0;
    items.push(line(itemId.state, running > 0 ? `Stopping — finishing ${plural(running, 'running job')}…` : 'Stopping…'));
    items.push({ id: itemId.quitNow, label: 'Quit now (running jobs run again next start)', action: { type: 'quitNow' } });
    return items;
  }
  let control: TrayItem[] = [];
  if (state.error) {
    items.push(line(itemId.state, oneLine(`Lanes is not running: ${state.error}`)));
    items.push({ id: itemId.retry, label: 'Try again', action: { type: 'retry' } });
  } else if (!state.status) {
    items.push(line(itemId.state, 'Starting…'));
  } else {
    const { status } = state;
    const pause = pauseItems(status.paused, now);
    control = pause.control;
    items.push(...pause.top);
    const held = holdingBack(status.machine);
    if (held) items.push(line(itemId.holdingBack, `Holding back — ${held}`));
    gpuLines(status.machine).forEach((words, n) => items.push(line(itemId.gpu(n), oneLine(words, 100))));
    if (status.lanes.length === 0) items.push(line('no-lanes', 'No lanes yet'));
    for (const lane of status.lanes) items.push(laneMenu(lane, status.ceiling, now, status.paused !== null));
  }
  items.push(separator('sep-app'), ...control);
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
  if (state.installCli) items.push({ id: itemId.installCli, label: 'Install command line tool…', action: { type: 'installCli' } });
  items.push(separator('sep-quit'));
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
