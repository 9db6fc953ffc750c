// The tray menu and icon for a table of engine states, and what clicking an item does.
import { describe, expect, it, vi } from 'vitest';
import { trayLook, trayIconFile } from '../../electron/shell/tray-look.js';
import { pauseInput } from '../../electron/shell/tray-actions.js';
import { findItem, itemId, PAUSE_HOUR_SECONDS, SNOOZE_SECONDS, toMenuTemplate, trayMenuModel, type TrayAction, type TrayItem } from '../../electron/shell/tray-menu.js';
import { lane, nudge, shell, status } from './fixtures.js';
import type { ShellState } from '../../electron/shell/shell-state.js';

/** Tuesday 3 June 2025, 14:30 local time: pause ends are worded in local time. */
const NOW = new Date(2025, 5, 3, 14, 30).getTime();
const menu = (state: ShellState) => trayMenuModel(state, NOW);
const look = (state: ShellState) => trayLook(state, NOW);

function ids(items: TrayItem[]): string[] {
  return items.flatMap((item) => [item.id, ...(item.submenu ? ids(item.submenu) : [])]);
}
function label(items: TrayItem[], id: string): string | undefined {
  return findItem(items, id)?.label;
}
function checkedCaps(items: TrayItem[], laneName: string): string[] {
  const sub = findItem(items, itemId.lane(laneName));
  if (sub?.type !== 'submenu') return [];
  return (sub.submenu ?? []).flatMap((item) => (item.type === 'radio' && item.checked ? [item.id] : []));
}
/** The top-level labels, as a person scanning the menu reads them. */
const topLabels = (items: TrayItem[]) => items.filter((item) => item.type !== 'separator').map((item) => item.label);

const idle = shell(status([lane('worker'), lane('ml', { class: 'ml' })]));
const busy = shell(status([lane('worker', { busy: 1, workers: 1, running: 1, waiting: 4060, mood: 'saturated' }), lane('ml', { class: 'ml' })]));
const nudged = shell(
  status([lane('worker', { busy: 1, workers: 1, running: 1 }), lane('ml', { class: 'ml', busy: 1, workers: 1, running: 1, waiting: 4060, nudge: nudge(3, 4060) })]),
);
const capZero = shell(status([lane('worker', { cap: 0, waiting: 12, mood: 'off' })]));
const ceilingOne = shell(status([lane('worker', { cap: 1, busy: 1, workers: 1, running: 1, waiting: 7 })], 1));
// Finding 3: the first lane nudges with 1 waiting, another with 4,666; the tooltip must name the second.
const twoNudges = shell(
  status([
    lane('small', { running: 1, busy: 1, workers: 1, waiting: 1, nudge: nudge(2, 1) }),
    lane('thumbs', { running: 1, busy: 1, workers: 1, waiting: 4666, nudge: nudge(4, 4666) }),
  ]),
);
// A small backlog first, a large one later, and an ETA on the large one.
const twoBacklogs = shell(
  status([lane('small', { running: 1, busy: 1, workers: 1, waiting: 3 }), lane('worker', { running: 2, busy: 2, workers: 2, cap: 2, waiting: 4533, etaMs: 38 * 60_000, etaState: 'known' })]),
);
const pausedHour = shell({ ...status([lane('worker', { running: 1, busy: 1, workers: 1, waiting: 40, mood: 'paused', etaMs: null, etaState: 'paused' })]), paused: { since: NOW, until: NOW + 3_600_000 } });
// One job scheduled for 05:01 tomorrow, one waiting for another job to succeed: neither is "idle".
const holdsLater = shell(status([lane('deploy', { waitingForJobs: 1, scheduled: 1, scheduledNext: new Date(2025, 5, 4, 5, 1).getTime() })]));
const pausedOpen = shell({ ...status([lane('worker')]), paused: { since: NOW, until: null } });

describe('tray menu for engine states', () => {
  it.each([
    { name: 'idle', state: idle, icon: 'idle', tooltip: 'Lanes — idle', title: ['worker', 'worker — idle'] },
    { name: 'busy', state: busy, icon: 'working', tooltip: 'Lanes — 1 running · worker: 4,060 waiting', title: ['worker', 'worker — 1 running, 4,060 waiting'] },
    { name: 'nudge', state: nudged, icon: 'nudge', tooltip: 'Lanes — raise ml to 3: 4,060 waiting', title: ['ml', 'ml — 1 running, 4,060 waiting · raise to 3?'] },
    { name: 'cap 0', state: capZero, icon: 'idle', tooltip: 'Lanes — nothing running · worker: 12 waiting (off)', title: ['worker', 'worker — off, 12 waiting'] },
    { name: 'ceiling 1', state: ceilingOne, icon: 'working', tooltip: 'Lanes — 1 running · worker: 7 waiting', title: ['worker', 'worker — 1 running, 7 waiting'] },
    { name: 'largest nudge', state: twoNudges, icon: 'nudge', tooltip: 'Lanes — raise thumbs to 4: 4,666 waiting', title: ['small', 'small — 1 running, 1 waiting · raise to 2?'] },
    { name: 'largest backlog', state: twoBacklogs, icon: 'working', tooltip: 'Lanes — 3 running · worker: 4,533 waiting, about 38 min', title: ['worker', 'worker — 2 running, 4,533 waiting'] },
    { name: 'paused 1 h', state: pausedHour, icon: 'paused', tooltip: 'Lanes — paused until 15:30, finishing 1 job · worker: 40 waiting', title: ['worker', 'worker — 1 running, 40 waiting'] },
    {
      name: 'one scheduled, one waiting for other jobs',
      state: holdsLater,
      icon: 'idle',
      tooltip: 'Lanes — nothing running · deploy: 1 waiting for other jobs, 1 scheduled for Wed 05:01',
      title: ['deploy', 'deploy — 1 waiting for other jobs, 1 scheduled for Wed 05:01'],
    },
    { name: 'paused open-ended', state: pausedOpen, icon: 'paused', tooltip: 'Lanes — paused until you resume', title: ['worker', 'worker — idle'] },
  ] as const)('$name', ({ state, icon, tooltip, title }) => {
    const model = menu(state);
    expect(look(state)).toEqual({ icon, tooltip });
    expect(label(model, itemId.lane(title[0]))).toBe(title[1]);
    // Always there, always the same ids.
    for (const id of [itemId.open, itemId.startAtLogin, itemId.quit]) expect(ids(model)).toContain(id);
  });

  it('one submenu per lane, titled with its name and state, not five bare "Cap: N"', () => {
    const five = shell(
      status([
        lane('worker', { cap: 3, running: 3, busy: 3, workers: 3, waiting: 4060 }),
        lane('ml', { cap: 0, mood: 'off' }),
        lane('thumbs', { running: 1, busy: 1, workers: 1 }),
        lane('words', { waiting: 2 }),
        lane('R&D', { cap: 2 }),
      ]),
    );
    expect(topLabels(menu(five)).slice(0, 5)).toEqual(['worker — 3 running, 4,060 waiting', 'ml — off', 'thumbs — 1 running', 'words — 2 waiting', 'R&D — idle']);
    for (const item of menu(five).slice(0, 5)) expect(item.type).toBe('submenu');
  });

  it('a lane\'s submenu: its numbers, then its cap choices 0..ceiling with the current cap checked', () => {
    const model = menu(twoBacklogs);
    expect(label(model, itemId.laneDetail('worker'))).toBe('4,535 left, about 38 min');
    expect(findItem(model, itemId.laneDetail('worker'))?.enabled).toBe(false);
    expect(ids(model).filter((id) => id.startsWith('lane:worker:cap:'))).toEqual([0, 1, 2, 3].map((n) => itemId.laneCapValue('worker', n)));
    expect(checkedCaps(model, 'worker')).toEqual([itemId.laneCapValue('worker', 2)]);
    expect(label(model, itemId.laneCapValue('worker', 0))).toBe('0 — off');
    expect(label(model, itemId.laneCapValue('worker', 3))).toBe('3 — machine ceiling');
    // Nothing to say about an idle lane: no detail line.
    expect(findItem(menu(idle), itemId.laneDetail('worker'))).toBeUndefined();
  });

  it('ceiling 1 offers only 0 and 1', () => {
    expect(ids(menu(ceilingOne)).filter((id) => id.startsWith('lane:worker:cap:'))).toEqual(['lane:worker:cap:0', 'lane:worker:cap:1']);
  });

  it('cap 0 checks 0', () => {
    expect(checkedCaps(menu(capZero), 'worker')).toEqual(['lane:worker:cap:0']);
  });

  it('a cap above today\'s ceiling still shows, checked', () => {
    const model = menu(shell(status([lane('worker', { cap: 5 })], 3)));
    expect(checkedCaps(model, 'worker')).toEqual(['lane:worker:cap:5']);
    expect(ids(model).filter((id) => id.startsWith('lane:worker:cap:'))).toHaveLength(6);
  });

  it('the nudge lives in its lane\'s submenu: raise (with what it buys) and snooze, only when the lane has one', () => {
    const model = menu(nudged);
    expect(label(model, itemId.laneNudge('ml'))).toBe('Raise to 3 — 4,060 waiting');
    expect(findItem(model, itemId.laneSnooze('ml'))).toMatchObject({ label: 'Snooze for a day', action: { type: 'snoozeNudge', lane: 'ml', forSeconds: SNOOZE_SECONDS } });
    const withEstimate = menu(shell(status([lane('ml', { waiting: 4060, nudge: { ...nudge(3, 4060), estimate: { atCapMs: 38 * 60_000, atSuggestedMs: 12 * 60_000 } } })])));
    expect(label(withEstimate, itemId.laneNudge('ml'))).toBe('Raise to 3 — about 12 min instead of 38 min');
    // The worker lane has no nudge; no other state has one.
    expect(findItem(model, itemId.laneNudge('worker'))).toBeUndefined();
    for (const state of [idle, busy, capZero, ceilingOne, pausedHour]) expect(ids(menu(state)).some((id) => id.endsWith(':nudge') || id.endsWith(':snooze'))).toBe(false);
  });

  it('paused: said at the top with Resume; otherwise Pause all offers an hour or until resumed', () => {
    expect(topLabels(menu(pausedHour)).slice(0, 2)).toEqual(['Paused until 15:30', 'Resume']);
    expect(findItem(menu(pausedHour), itemId.resume)?.action).toEqual({ type: 'resume' });
    expect(ids(menu(pausedHour))).not.toContain(itemId.pauseAll);
    expect(label(menu(pausedOpen), itemId.paused)).toBe('Paused until you resume');
    const running = menu(busy);
    expect(ids(running)).not.toContain(itemId.paused);
    expect(findItem(running, itemId.pauseHour)?.action).toEqual({ type: 'pause', forSeconds: PAUSE_HOUR_SECONDS });
    expect(findItem(running, itemId.pauseUntilResumed)?.action).toEqual({ type: 'pause' });
    // Nothing to pause while the engine is not running.
    for (const state of [shell(null), shell(null, { error: 'boom' })]) expect(ids(menu(state))).not.toContain(itemId.pauseAll);
  });

  it('no lanes, starting, failed, stopping', () => {
    expect(ids(menu(shell(status([]))))).toContain('no-lanes');
    expect(label(menu(shell(null)), itemId.state)).toBe('Starting…');
    const failed = shell(null, { error: 'data dir in use by lanes daemon (pid 42)' });
    expect(label(menu(failed), itemId.state)).toBe('Lanes is not running: data dir in use by lanes daemon (pid 42)');
    expect(look(failed).icon).toBe('error');
    expect(ids(menu(failed))).toContain(itemId.retry);
    const stopping = menu({ ...busy, stopping: true });
    expect(ids(stopping)).toEqual([itemId.state, itemId.quitNow]);
    expect(label(stopping, itemId.state)).toBe('Stopping — finishing 1 running job…');
  });

  it('keeps the tooltip to one short line', () => {
    const long = look(shell(null, { error: `cannot open the store:\n${'x'.repeat(300)}` }));
    expect(long.tooltip).not.toContain('\n');
    expect(long.tooltip.length).toBeLessThanOrEqual(120);
    expect(long.tooltip.endsWith('…')).toBe(true);
  });

  it('hides Start at login where the platform has none, and shows it checked when on', () => {
    expect(ids(menu({ ...idle, startAtLoginSupported: false }))).not.toContain(itemId.startAtLogin);
    const on = menu({ ...idle, startAtLogin: true }).find((item) => item.id === itemId.startAtLogin);
    expect(on).toMatchObject({ type: 'checkbox', checked: true, action: { type: 'toggleStartAtLogin', on: false } });
  });
});

describe('clicking menu items', () => {
  function clickable(state = busy) {
    const setCap = vi.fn<(lane: string, cap: number) => void>();
    const other = vi.fn<(action: TrayAction) => void>();
    const template = toMenuTemplate(menu(state), ({ action }) => {
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

  it('the checked cap does nothing; the nudge raises to its suggestion; snooze snoozes that lane', () => {
    const { setCap, other, click } = clickable(nudged);
    click(itemId.laneCapValue('ml', 1));
    expect(setCap).not.toHaveBeenCalled();
    click(itemId.laneNudge('ml'));
    expect(setCap).toHaveBeenCalledWith('ml', 3);
    click(itemId.laneSnooze('ml'));
    expect(other).toHaveBeenCalledWith({ type: 'snoozeNudge', lane: 'ml', forSeconds: SNOOZE_SECONDS });
  });

  it('open and quit dispatch their actions; status lines are not clickable', () => {
    const { template, other, click } = clickable(twoBacklogs);
    click(itemId.open);
    click(itemId.quit);
    expect(other.mock.calls.map(([a]) => a.type)).toEqual(['open', 'quit']);
    expect(findItem(template, itemId.laneDetail('worker'))).toMatchObject({ enabled: false });
    expect(findItem(template, itemId.laneDetail('worker'))?.click).toBeUndefined();
  });

  it('escapes & in lane names so Windows and Linux do not eat it', () => {
    const { template } = clickable(shell(status([lane('R&D')])));
    expect(findItem(template, itemId.lane('R&D'))?.label).toBe('R&&D — idle');
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

describe('the machine holding back, and what a raise buys', () => {
  const battery = (s: ReturnType<typeof status>) => ({ ...s, ceiling: 3, machine: { ...s.machine, ceiling: 3, limitedBy: 'battery' as const, power: 'battery' as const, text: 'quiet: on battery' } });

  it('says why Lanes holds back at the top of the menu and in the tooltip; says nothing when only the cores bind', () => {
    const busy = lane('worker', { running: 3, busy: 3, workers: 3, waiting: 40 });
    const held = shell(battery(status([busy], 7)));
    expect(findItem(menu(held), itemId.holdingBack)).toMatchObject({ label: 'Holding back — quiet: on battery', enabled: false });
    expect(look(held).tooltip).toBe('Lanes — 3 running · worker: 40 waiting · quiet: on battery');
    const plain = shell(status([busy], 7));
    expect(findItem(menu(plain), itemId.holdingBack)).toBeUndefined();
    expect(look(plain).tooltip).not.toContain('quiet');
  });

  it("a lane held by its memory says so in its submenu", () => {
    const models = lane('models', { class: 'ml', cap: 7, running: 3, busy: 3, workers: 3, waiting: 37, limit: { workers: 3, by: 'memory', text: 'memory for 3 of these, about 410 MB each' } });
    const sub = findItem(menu(shell(status([models], 7))), itemId.lane('models'))!.submenu!;
    expect(sub.find((i) => i.id === itemId.laneDetail('models'))?.label).toContain('memory for 3 of these, about 410 MB each');
  });

  it('a GPU line per card where nvidia-smi reads them, and a lane held by the GPU says so; none where GPU memory is not known', () => {
    const gpu = { index: 0, name: 'RTX 4090', totalBytes: 24 * 2 ** 30, usedBytes: 18 * 2 ** 30, heldByLanesBytes: 17.6 * 2 ** 30, forWorkersBytes: 23 * 2 ** 30 };
    const models = lane('models', { class: 'ml', cap: 7, running: 3, busy: 3, workers: 3, waiting: 37, limit: { workers: 3, by: 'gpu', text: 'the GPU has memory for 3 of these workers, about 5.9 GB each' } });
    const s = status([models], 7);
    const items = menu(shell({ ...s, machine: { ...s.machine, gpuMemory: 'nvidia', gpus: [gpu] } }));
    expect(findItem(items, itemId.gpu(0))).toMatchObject({ label: "GPU: RTX 4090 — 24 GB, 18 GB in use (18 GB by Lanes' workers), 5.4 GB more for workers", enabled: false });
    const sub = findItem(items, itemId.lane('models'))!.submenu!;
    expect(sub.find((i) => i.id === itemId.laneDetail('models'))?.label).toContain('the GPU has memory for 3 of these workers');
    const unknown = menu(shell({ ...s, machine: { ...s.machine, gpuMemory: 'unknown' } }));
    expect(findItem(unknown, itemId.gpu(0))).toBeUndefined();
    expect(findItem(menu(shell(s)), itemId.gpu(0))).toBeUndefined();
  });

  it('the nudge tooltip gives the estimate at the suggested cap beside the current one', () => {
    const n = { ...nudge(6, 4060), estimate: { atCapMs: 11 * 3600_000, atSuggestedMs: 2 * 3600_000 } };
    const w = lane('worker', { running: 1, busy: 1, workers: 1, waiting: 4060, nudge: n });
    expect(look(shell(status([w], 7))).tooltip).toBe('Lanes — raise worker to 6: 4,060 waiting, about 2 h instead of 11 h');
    expect(look(shell(status([{ ...w, nudge: nudge(6, 4060) }], 7))).tooltip).toBe('Lanes — raise worker to 6: 4,060 waiting');
  });
});

describe('pausing from the tray: all work or one lane, for 15 min, 1 h, 4 h, until tomorrow or until resumed', () => {
  const spans = ['For 15 minutes', 'For 1 hour', 'For 4 hours', 'Until tomorrow, 08:00', 'Until I resume'];
  it('Pause all offers every span, and each lane its own Pause this lane', () => {
    const model = menu(idle);
    const all = findItem(model, itemId.pauseAll);
    expect(all?.submenu?.map((i) => i.label)).toEqual(spans);
    expect(findItem(model, itemId.pauseFor('15m'))?.action).toEqual({ type: 'pause', forSeconds: 900 });
    expect(findItem(model, itemId.pauseFor('tomorrow'))?.action).toEqual({ type: 'pause', tomorrow: true });
    const lanePause = findItem(model, itemId.lanePause('worker'));
    expect(lanePause?.submenu?.map((i) => i.label)).toEqual(spans);
    expect(findItem(model, itemId.lanePauseFor('worker', '15m'))?.action).toEqual({ type: 'pause', lane: 'worker', forSeconds: 900 });
  });

  it('a lane paused by itself says until when, and offers Resume this lane; with all work paused, no lane pause is offered', () => {
    const held = shell(status([lane('deploy', { mood: 'paused', paused: { since: NOW, until: NOW + 3_600_000 } }), lane('worker')]));
    const model = menu(held);
    expect(label(model, itemId.lanePaused('deploy'))).toBe('This lane paused until 15:30');
    expect(findItem(model, itemId.laneResume('deploy'))?.action).toEqual({ type: 'resume', lane: 'deploy' });
    expect(findItem(model, itemId.lanePause('worker'))).toBeDefined();
    expect(findItem(menu(pausedOpen), itemId.lanePause('worker'))).toBeUndefined();
  });

  it('"until tomorrow" is reckoned when clicked: 08:00 the next day', () => {
    const late = new Date(2025, 5, 3, 23, 50).getTime();
    expect(pauseInput({ type: 'pause', tomorrow: true, lane: 'deploy' }, late)).toEqual({ until: new Date(2025, 5, 4, 8, 0).getTime(), lane: 'deploy' });
    expect(pauseInput({ type: 'pause', tomorrow: true }, new Date(2025, 5, 4, 1, 0).getTime())).toEqual({ until: new Date(2025, 5, 5, 8, 0).getTime() });
    expect(pauseInput({ type: 'pause', forSeconds: 900 }, late)).toEqual({ forSeconds: 900 });
  });
});
