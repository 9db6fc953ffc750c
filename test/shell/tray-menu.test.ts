// The tray menu and icon for a table of engine states, and what clicking an item does.
import { describe, expect, it, vi } from 'vitest';
import { trayLook, trayIconFile } from '../../electron/shell/tray-look.js';
import { findItem, itemId, toMenuTemplate, trayMenuModel, type TrayAction, type TrayItem } from '../../electron/shell/tray-menu.js';
import { lane, nudge, shell, status } from './fixtures.js';

function ids(items: TrayItem[]): string[] {
  return items.flatMap((item) => [item.id, ...(item.submenu ? ids(item.submenu) : [])]);
}
function label(items: TrayItem[], id: string): string | undefined {
  return findItem(items, id)?.label;
}
function checkedCaps(items: TrayItem[], laneName: string): string[] {
  const cap = items.find((item) => item.id === itemId.laneCap(laneName));
  if (cap?.type !== 'submenu') return [];
  return (cap.submenu ?? []).flatMap((item) => (item.type === 'radio' && item.checked ? [item.id] : []));
}

const idle = shell(status([lane('worker'), lane('ml', { class: 'ml' })]));
const busy = shell(status([lane('worker', { busy: 1, workers: 1, running: 1, waiting: 4060, mood: 'saturated' }), lane('ml', { class: 'ml' })]));
const nudged = shell(
  status([lane('worker', { busy: 1, workers: 1, running: 1 }), lane('ml', { class: 'ml', busy: 1, workers: 1, running: 1, waiting: 4060, nudge: nudge(3, 4060) })]),
);
const capZero = shell(status([lane('worker', { cap: 0, waiting: 12, mood: 'off' })]));
const ceilingOne = shell(status([lane('worker', { cap: 1, busy: 1, workers: 1, running: 1, waiting: 7 })], 1));

describe('tray menu for engine states', () => {
  it.each([
    { name: 'idle', state: idle, icon: 'idle', tooltip: 'Lanes — idle', line: ['worker', 'worker — 0/1 busy'] },
    { name: 'busy', state: busy, icon: 'working', tooltip: 'Lanes — 1 busy, 4,060 waiting', line: ['worker', 'worker — 1/1 busy, 4,060 waiting'] },
    { name: 'nudge', state: nudged, icon: 'nudge', tooltip: 'Lanes — raise ml to 3: 4,060 waiting', line: ['ml', 'ml — 1/1 busy, 4,060 waiting'] },
    { name: 'cap 0', state: capZero, icon: 'idle', tooltip: 'Lanes — idle, 12 waiting', line: ['worker', 'worker — off (cap 0), 12 waiting'] },
    { name: 'ceiling 1', state: ceilingOne, icon: 'working', tooltip: 'Lanes — 1 busy, 7 waiting', line: ['worker', 'worker — 1/1 busy, 7 waiting'] },
  ] as const)('$name', ({ state, icon, tooltip, line }) => {
    const model = trayMenuModel(state);
    expect(trayLook(state)).toEqual({ icon, tooltip });
    expect(label(model, itemId.laneStatus(line[0]))).toBe(line[1]);
    // Always there, always the same ids.
    for (const id of [itemId.open, itemId.startAtLogin, itemId.quit]) expect(ids(model)).toContain(id);
  });

  it('a Cap submenu per lane with radio items 0..ceiling, the current cap checked', () => {
    const model = trayMenuModel(busy);
    expect(ids(model).filter((id) => id.startsWith('lane:worker:cap:'))).toEqual([0, 1, 2, 3].map((n) => itemId.laneCapValue('worker', n)));
    expect(checkedCaps(model, 'worker')).toEqual([itemId.laneCapValue('worker', 1)]);
    expect(label(model, itemId.laneCapValue('worker', 0))).toBe('0 — off');
    expect(label(model, itemId.laneCapValue('worker', 3))).toBe('3 — machine ceiling');
  });

  it('ceiling 1 offers only 0 and 1', () => {
    const model = trayMenuModel(ceilingOne);
    expect(ids(model).filter((id) => id.startsWith('lane:worker:cap:'))).toEqual(['lane:worker:cap:0', 'lane:worker:cap:1']);
  });

  it('cap 0 checks 0', () => {
    expect(checkedCaps(trayMenuModel(capZero), 'worker')).toEqual(['lane:worker:cap:0']);
  });

  it('a cap above today\'s ceiling still shows, checked', () => {
    const model = trayMenuModel(shell(status([lane('worker', { cap: 5 })], 3)));
    expect(checkedCaps(model, 'worker')).toEqual(['lane:worker:cap:5']);
  });

  it('the nudge is an item only when a lane has one', () => {
    expect(label(trayMenuModel(nudged), itemId.laneNudge('ml'))).toBe('Raise ml to 3 — 4,060 waiting');
    for (const state of [idle, busy, capZero, ceilingOne]) expect(ids(trayMenuModel(state)).some((id) => id.endsWith(':nudge'))).toBe(false);
  });

  it('no lanes, starting, failed, stopping', () => {
    expect(ids(trayMenuModel(shell(status([]))))).toContain('no-lanes');
    expect(label(trayMenuModel(shell(null)), itemId.state)).toBe('Starting…');
    const failed = shell(null, { error: 'data dir in use by lanes daemon (pid 42)' });
    expect(label(trayMenuModel(failed), itemId.state)).toBe('Lanes is not running: data dir in use by lanes daemon (pid 42)');
    expect(trayLook(failed).icon).toBe('error');
    expect(ids(trayMenuModel(failed))).toContain(itemId.retry);
    const stopping = trayMenuModel({ ...busy, stopping: true });
    expect(ids(stopping)).toEqual([itemId.state, itemId.quitNow]);
    expect(label(stopping, itemId.state)).toBe('Stopping — finishing 1 running job…');
  });

  it('keeps the tooltip to one short line', () => {
    const look = trayLook(shell(null, { error: `cannot open the store:\n${'x'.repeat(300)}` }));
    expect(look.tooltip).not.toContain('\n');
    expect(look.tooltip.length).toBeLessThanOrEqual(120);
    expect(look.tooltip.endsWith('…')).toBe(true);
  });

  it('hides Start at login where the platform has none, and shows it checked when on', () => {
    expect(ids(trayMenuModel({ ...idle, startAtLoginSupported: false }))).not.toContain(itemId.startAtLogin);
    const on = trayMenuModel({ ...idle, startAtLogin: true }).find((item) => item.id === itemId.startAtLogin);
    expect(on).toMatchObject({ type: 'checkbox', checked: true, action: { type: 'toggleStartAtLogin', on: false } });
  });
});

describe('clicking menu items', () => {
  function clickable(state = busy) {
    const setCap = vi.fn<(lane: string, cap: number) => void>();
    const other = vi.fn<(action: TrayAction) => void>();
    const template = toMenuTemplate(trayMenuModel(state), ({ action }) => {
      if (action?.type === 'setCap') setCap(action.lane, action.cap);
      else if (action) other(action);
    });
    const click = (id: string) => {
      const item = findItem(template, id);
      if (!item) throw new Error(`no item ${id}`);
      (item.click as (() => void) | undefined)?.();
    };
    return { template, setCap, other, click };
  }

  it('a cap item sets that lane\'s cap to that value', () => {
    const { setCap, click } = clickable();
    click(itemId.laneCapValue('worker', 3));
    click(itemId.laneCapValue('ml', 0));
    expect(setCap.mock.calls).toEqual([['worker', 3], ['ml', 0]]);
  });

  it('the checked cap does nothing; the nudge raises to its suggestion', () => {
    const { setCap, click } = clickable(nudged);
    click(itemId.laneCapValue('ml', 1));
    expect(setCap).not.toHaveBeenCalled();
    click(itemId.laneNudge('ml'));
    expect(setCap).toHaveBeenCalledWith('ml', 3);
  });

  it('open and quit dispatch their actions; status lines are not clickable', () => {
    const { template, other, click } = clickable();
    click(itemId.open);
    click(itemId.quit);
    expect(other.mock.calls.map(([a]) => a.type)).toEqual(['open', 'quit']);
    expect(findItem(template, itemId.laneStatus('worker'))).toMatchObject({ enabled: false });
  });

  it('escapes & in lane names so Windows and Linux do not eat it', () => {
    const { template } = clickable(shell(status([lane('R&D')])));
    expect(findItem(template, itemId.laneStatus('R&D'))?.label).toBe('R&&D — 0/1 busy');
  });
});

describe('tray icon files', () => {
  it.each([
    ['darwin', 'tray-nudgeTemplate.png'],
    ['win32', 'tray-nudge.png'],
    ['linux', 'tray-nudge@2x.png'],
  ] as const)('%s → %s', (platform, file) => {
    expect(trayIconFile('nudge', platform)).toBe(file);
  });
});
