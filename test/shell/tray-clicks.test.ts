// What a tray click leads to, without Electron: the action through the shared client, a warning
// when it fails, and a menu handed to the OS only when something changed — except after a radio
// or checkbox click, whose mark the OS moved by itself and which must be put back on a failure.
import { describe, expect, it, vi } from 'vitest';
import { LanesClient } from '../../shared/client/client.js';
import type { Transport } from '../../shared/client/transport.js';
import { LanesError } from '../../shared/errors.js';
import { createShellStore, type ShellState } from '../../electron/shell/shell-state.js';
import { trayActions, type ActionOutcome, type TrayDispatch } from '../../electron/shell/tray-actions.js';
import { findItem, itemId, type MenuTemplateItem, type TrayAction } from '../../electron/shell/tray-menu.js';
import { TrayView } from '../../electron/shell/tray-view.js';
import { lane, shell, status } from './fixtures.js';

const settle = () => new Promise((resolve) => setImmediate(resolve));

function client(answer: (name: string, input: unknown) => unknown) {
  const request = vi.fn(async (name: string, input: unknown) => answer(name, input));
  const transport: Transport = { request, listen: () => ({ opened: Promise.resolve(), closed: new Promise(() => {}), close() {} }) };
  return { client: new LanesClient(transport), request };
}

function actions(answer: (name: string, input: unknown) => unknown = () => ({})) {
  const { client: c, request } = client(answer);
  const store = createShellStore(shell(status([lane('worker')])));
  const login = { supported: true, on: false, isOn: () => login.on, set: vi.fn((on: boolean) => void (login.on = on)) };
  const deps = {
    client: () => c as LanesClient | null,
    retry: vi.fn(),
    store,
    login,
    openWindow: vi.fn(),
    quit: vi.fn(),
    quitNow: vi.fn(),
    warn: vi.fn(),
    tell: vi.fn(),
    installCli: vi.fn(async () => 'installed'),
    cliOffered: vi.fn(() => false),
    log: vi.fn(),
  };
  return { dispatch: trayActions(deps), deps, request };
}

describe('tray actions', () => {
  it('a cap goes to the engine through the shared client', async () => {
    const { dispatch, request } = actions();
    expect(await dispatch({ type: 'setCap', lane: 'worker', cap: 2 })).toBe('done');
    expect(request).toHaveBeenCalledWith('setCap', { lane: 'worker', cap: 2 });
  });

  it('a cap the engine refuses is said in a notification, and answered as failed', async () => {
    const { dispatch, deps } = actions(() => {
      throw new LanesError('not_found', 'there is no lane named "extra"', 'lane');
    });
    expect(await dispatch({ type: 'setCap', lane: 'extra', cap: 1 })).toBe('failed');
    expect(deps.warn).toHaveBeenCalledWith("Could not set extra's cap", 'there is no lane named "extra"');
  });

  it.each([
    [{ type: 'snoozeNudge', lane: 'worker', forSeconds: 86_400 }, 'snoozeNudge', { lane: 'worker', forSeconds: 86_400 }],
    [{ type: 'pause', forSeconds: 3600 }, 'pause', { forSeconds: 3600 }],
    [{ type: 'pause' }, 'pause', {}],
    [{ type: 'resume' }, 'resume', {}],
  ] as const)('%j is the %s request', async (action, name, input) => {
    const { dispatch, request } = actions();
    expect(await dispatch(action)).toBe('done');
    expect(request).toHaveBeenCalledWith(name, input);
  });

  it.each([
    [{ type: 'snoozeNudge', lane: 'ml', forSeconds: 60 }, "Could not snooze ml's suggestion"],
    [{ type: 'pause' }, 'Could not pause'],
    [{ type: 'resume' }, 'Could not resume'],
  ] as const)('a refused %j says so: %s', async (action, title) => {
    const { dispatch, deps } = actions(() => {
      throw new LanesError('unavailable', 'the engine is stopping');
    });
    expect(await dispatch(action)).toBe('failed');
    expect(deps.warn).toHaveBeenCalledWith(title, 'the engine is stopping');
  });

  it('with no engine running a cap is not set', async () => {
    const { deps, request } = actions();
    deps.client = () => null;
    expect(await trayActions(deps)({ type: 'setCap', lane: 'worker', cap: 2 })).toBe('failed');
    expect(request).not.toHaveBeenCalled();
  });

  it('Start at login shows what the OS says afterwards, even when setting it failed', async () => {
    const { dispatch, deps } = actions();
    expect(await dispatch({ type: 'toggleStartAtLogin', on: true })).toBe('done');
    expect(deps.store.get().startAtLogin).toBe(true);
    deps.login.set.mockImplementation(() => {
      throw new Error('read-only');
    });
    expect(await dispatch({ type: 'toggleStartAtLogin', on: false })).toBe('failed');
    expect(deps.warn).toHaveBeenCalledWith('Could not change Start at login', 'read-only');
    expect(deps.store.get().startAtLogin).toBe(true);
  });

  it.each([
    [{ type: 'open' }, 'openWindow'],
    [{ type: 'retry' }, 'retry'],
    [{ type: 'quit' }, 'quit'],
    [{ type: 'quitNow' }, 'quitNow'],
  ] as const)('%j calls %s', async (action, dep) => {
    const { dispatch, deps } = actions();
    expect(await dispatch(action)).toBe('done');
    expect(deps[dep]).toHaveBeenCalledTimes(1);
  });

  it('a throwing action is logged and answered as failed, never thrown', async () => {
    const { deps } = actions();
    deps.openWindow.mockImplementation(() => {
      throw new Error('no display');
    });
    expect(await trayActions(deps)({ type: 'open' })).toBe('failed');
    expect(deps.log).toHaveBeenCalledWith('tray: open failed: no display');
  });
});

describe('the tray view', () => {
  function view(initial: ShellState, outcome: ActionOutcome = 'done') {
    const store = createShellStore(initial);
    const menus: MenuTemplateItem[][] = [];
    const surface = { setIcon: vi.fn(), setToolTip: vi.fn(), setMenu: (t: MenuTemplateItem[]) => menus.push(t) };
    const dispatched: TrayAction[] = [];
    const dispatch: TrayDispatch = async (action) => (dispatched.push(action), outcome);
    const v = new TrayView({ surface, state: store.get, dispatch });
    v.render();
    store.subscribe(() => v.render());
    const click = (id: string) => findItem(v.menu, id)?.click?.();
    const checked = () => menus.at(-1)?.flatMap((item) => item.submenu ?? []).filter((item) => item.checked).map((item) => item.id);
    return { v, store, menus, surface, dispatched, click, checked };
  }
  const oneLane = (cap: number) => shell(status([lane('worker', { cap })]));

  it('hands the OS the icon, tooltip and menu once, and again only when they change', () => {
    const { v, store, menus, surface } = view(oneLane(1));
    expect(surface.setIcon).toHaveBeenCalledWith('idle');
    expect(surface.setToolTip).toHaveBeenCalledWith('Lanes — idle');
    expect(menus).toHaveLength(1);
    v.render();
    store.set({ status: status([lane('worker', { cap: 1 })]) });
    expect(menus).toHaveLength(1);
    expect(surface.setIcon).toHaveBeenCalledTimes(1);
    store.set({ status: status([lane('worker', { cap: 1, busy: 1, workers: 1, running: 1 })]) });
    expect(menus).toHaveLength(2);
    expect(surface.setIcon).toHaveBeenLastCalledWith('working');
  });

  it('a cap that fails is put back: a fresh menu with the engine\'s cap checked', async () => {
    const { menus, dispatched, click, checked } = view(oneLane(1), 'failed');
    click(itemId.laneCapValue('worker', 3));
    expect(dispatched).toEqual([{ type: 'setCap', lane: 'worker', cap: 3 }]);
    await settle();
    expect(menus).toHaveLength(2);
    expect(checked()).toEqual([itemId.laneCapValue('worker', 1)]);
  });

  it('a cap that is set waits for the engine\'s event, then hands a fresh menu', async () => {
    const { store, menus, click, checked } = view(oneLane(1), 'done');
    click(itemId.laneCapValue('worker', 3));
    await settle();
    // Handing the old menu back now would move the mark back before the news arrives.
    expect(menus).toHaveLength(1);
    store.set({ status: status([lane('worker', { cap: 3 })]) });
    expect(menus).toHaveLength(2);
    expect(checked()).toEqual([itemId.laneCapValue('worker', 3)]);
  });

  it('a plain item (Open Lanes) leaves the menu alone', async () => {
    const { menus, dispatched, click, v } = view(oneLane(1), 'failed');
    click(itemId.open);
    await settle();
    v.render();
    expect(dispatched).toEqual([{ type: 'open' }]);
    expect(menus).toHaveLength(1);
  });
});
