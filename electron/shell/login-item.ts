// "Start at login" for each platform behind one small interface the tray uses.
import { app } from 'electron';
import { appRoot } from '../paths/app-files.js';
import { LOGIN_FLAG, linuxAutostart, loginCommand, startedAtLogin } from './autostart.js';

export interface LoginItem {
  readonly supported: boolean;
  isOn(): boolean;
  set(on: boolean): void;
}

function linuxCommand(): string[] {
  return loginCommand({
    execPath: process.execPath,
    appImage: process.env.APPIMAGE,
    packaged: app.isPackaged,
    appPath: appRoot,
  });
}

export function createLoginItem(platform: NodeJS.Platform = process.platform): LoginItem {
  if (platform === 'linux') {
    return { supported: true, isOn: () => linuxAutostart.isOn(), set: (on) => linuxAutostart.set(on, linuxCommand()) };
  }
  if (platform === 'darwin' || platform === 'win32') {
    // Windows passes `args` to the login start; the same list must be given when reading the
    // setting back, or Windows reports it off.
    const args = platform === 'win32' ? [LOGIN_FLAG] : [];
    return {
      supported: true,
      isOn: () => app.getLoginItemSettings({ args }).openAtLogin,
      set: (on) => app.setLoginItemSettings({ openAtLogin: on, args }),
    };
  }
  return { supported: false, isOn: () => false, set: () => {} };
}

export function launchedAtLogin(): boolean {
  const macOpened = process.platform === 'darwin' && app.getLoginItemSettings().wasOpenedAtLogin === true;
  return startedAtLogin(process.argv, macOpened);
}
