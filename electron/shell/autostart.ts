// Start at login on Linux. Electron's setLoginItemSettings covers macOS and Windows only; on Linux
// the desktop-neutral way is an XDG autostart entry (~/.config/autostart/*.desktop) that GNOME,
// KDE, Xfce and others all read. No Electron here, so it is tested under Node.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The flag a login start carries, so the app knows not to pop its window up at login. */
export const LOGIN_FLAG = '--login';

export function autostartFile(env: NodeJS.ProcessEnv = process.env, home = os.homedir()): string {
  const config = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(home, '.config');
  return path.join(config, 'autostart', 'lanes.desktop');
}

/** Quote one Exec argument as the Desktop Entry spec asks: reserved characters inside "…". */
export function quoteExecArg(arg: string): string {
  const escapedPercent = arg.replace(/%/g, '%%');
  if (!/[\s"'\\`$<>~|&;*?#()]/.test(escapedPercent) && escapedPercent !== '') return escapedPercent;
  return `"${escapedPercent.replace(/(["`$\\])/g, '\\$1')}"`;
}

export function autostartEntry(command: readonly string[]): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=Lanes',
    'Comment=Runs your background work in lanes',
    `Exec=${command.map(quoteExecArg).join(' ')}`,
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

/**
 * What to run at login: the AppImage file itself when running from one (its mount point changes
 * every run), else the executable, plus the app folder when it is plain `electron .` from source.
 */
export function loginCommand(opts: { execPath: string; appImage?: string; packaged: boolean; appPath: string }): string[] {
  if (opts.appImage) return [opts.appImage, LOGIN_FLAG];
  return opts.packaged ? [opts.execPath, LOGIN_FLAG] : [opts.execPath, opts.appPath, LOGIN_FLAG];
}

export const linuxAutostart = {
  isOn(file = autostartFile()): boolean {
    return fs.existsSync(file);
  },
  set(on: boolean, command: readonly string[], file = autostartFile()): void {
    if (!on) {
      fs.rmSync(file, { force: true });
      return;
    }
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, autostartEntry(command));
  },
};

/** Was this start the login one? Then the app stays in the tray instead of opening its window. */
export function startedAtLogin(argv: readonly string[], macWasOpenedAtLogin: boolean): boolean {
  return macWasOpenedAtLogin || argv.includes(LOGIN_FLAG);
}
