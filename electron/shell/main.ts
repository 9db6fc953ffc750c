// Lanes' main process. It only wires small modules together: each concern (engine, tray, window,
// IPC, power, quitting) lives in its own file beside this one.
import path from 'node:path';
import { app, dialog } from 'electron';
import { defaultDataDir } from '../paths/data-dir.js';
import { startedAtLogin } from './autostart.js';
import { launchedAtLogin, createLoginItem } from './login-item.js';
import { cliInstallPlan } from './cli-install.js';
import { cliInstallFacts, offerCliInstall, runCliInstall } from './cli-install-run.js';
import { createEngineHost } from './engine-host.js';
import { setupIpc } from './ipc.js';
import { createLog } from './log.js';
import { adoptLoginShellPath } from './login-path.js';
import { notify, setupNotifications } from './notifications.js';
import { appPaths } from './paths.js';
import { claimSingleInstance, setupPowerEvents } from './lifecycle.js';
import { QuitSequence, SHUTDOWN_GRACE_MS } from './quit.js';
import { createShellStore } from './shell-state.js';
import { installTestHooks } from './test-hooks.js';
import { trayActions } from './tray-actions.js';
import { setupTray } from './tray.js';
import { utilityLauncher } from './utility-launcher.js';
import { limitPermissions, guardWebContents, registerAppScheme, serveWindow } from './web-pages.js';
import { setupWindow } from './window.js';
import { desktopSignals } from './desktop-signals.js';

// Before `ready`: the CLI, `lanes daemon` and the app must share one data directory. Chromium's
// own files (caches, local storage) go in a folder of their own inside it.
app.setPath('userData', defaultDataDir());
app.setPath('sessionData', path.join(defaultDataDir(), 'electron'));
// Windows shows notifications only for an app with this id (the installer registers the same).
if (process.platform === 'win32') app.setAppUserModelId('app.lanes.desktop');
const log = createLog(app.getPath('userData'));
const mainWindow = setupWindow({ preload: appPaths.preload, icon: appPaths.appIcon });

// A second launch shows the window, unless it is a login start racing a running app.
const onSecondLaunch = (argv: string[]) => {
  if (!startedAtLogin(argv, false)) mainWindow.open();
};
if (!claimSingleInstance(onSecondLaunch)) {
  app.quit();
} else {
  registerAppScheme();
  guardWebContents();
  // A tray app: closing the last window must not quit.
  app.on('window-all-closed', () => {});
  app
    .whenReady()
    .then(start)
    .catch((error: unknown) => {
      // The shell itself broke (not the engine, whose failures show in the tray): say so, leave.
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      log(`shell: could not start: ${message}`);
      dialog.showErrorBox('Lanes could not start', message);
      app.exit(1);
    });
}

async function start(): Promise<void> {
  limitPermissions();
  serveWindow(appPaths.windowDir);
  const login = createLoginItem();
  const store = createShellStore({ status: null, error: null, stopping: false, startAtLogin: login.isOn(), startAtLoginSupported: login.supported, installCli: false });
  const host = createEngineHost({ dataDir: app.getPath('userData'), launcher: utilityLauncher(), desktop: desktopSignals(), store, log });
  setupIpc(host);

  let destroyTray = () => {};
  const quit = new QuitSequence({
    showStopping: () => {
      store.set({ stopping: true });
      mainWindow.allowClose();
      mainWindow.hide();
    },
    stopEngine: (graceMs) => host.stop(graceMs),
    stopEngineNow: async () => host.engine()?.stop({ graceMs: 0 }),
    cleanUp: () => destroyTray(),
    exit: (code) => app.exit(code),
    log,
  });
  app.on('before-quit', (event) => {
    if (quit.onBeforeQuit()) event.preventDefault();
  });

  const dispatch = trayActions({
    client: host.client,
    retry: () => void host.start(),
    store,
    login,
    openWindow: mainWindow.open,
    quit: () => app.quit(),
    quitNow: () => void quit.now(),
    warn: notify,
    tell: notify,
    installCli: () => runCliInstall(cliInstallPlan(cliInstallFacts(app.isPackaged))),
    cliOffered: () => offerCliInstall(app.isPackaged),
    log,
  });
  const tray = setupTray({ store, iconsDir: appPaths.iconsDir, dispatch, onClick: mainWindow.open });
  destroyTray = () => tray.destroy();
  installTestHooks(tray.template);
  setupNotifications({ store, icon: appPaths.appIcon, onClick: mainWindow.open });
  setupPowerEvents({ refresh: host.refresh, quit: (graceMs) => void quit.drain(graceMs), shutdownGraceMs: SHUTDOWN_GRACE_MS, log });
  app.on('activate', () => mainWindow.open());

  // Workers (and so jobs) inherit this process's environment: get PATH right before any starts.
  await adoptLoginShellPath({ platform: process.platform, packaged: app.isPackaged, log });
  // Asked with the login shell's PATH: a terminal's `lanes` is what counts.
  store.set({ installCli: offerCliInstall(app.isPackaged) });
  await host.start();
  if (!launchedAtLogin()) mainWindow.open();
}
