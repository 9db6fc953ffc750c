// "Install command line tool…": whether the tray offers it, and what it does, decided from facts
// (pure, table-tested); cli-install-run.ts gathers the facts and carries the plan out. The app
// carries the standalone `lanes` in resources/bin. The deb links it to /usr/bin/lanes and the
// Windows installer puts its folder on PATH, so there is nothing to offer; an AppImage cannot
// install anything, and a macOS app is dragged into place, so the tray does it there:
//   - AppImage: a copy in ~/.local/bin (the AppImage's files are mounted only while it runs,
//     so a link into them would be dead once the app quits);
//   - macOS: a link at /usr/local/bin/lanes, made after the OS's admin prompt, as VS Code does.
import path from 'node:path';

export interface CliInstallFacts {
  platform: NodeJS.Platform;
  /** A packaged app: from a checkout the command line is `node bin/lanes.js`. */
  packaged: boolean;
  /** The AppImage file when running from one ($APPIMAGE). */
  appImage: string | undefined;
  /** The standalone CLI inside this app: resources/bin/lanes. */
  bundledCli: string;
  home: string;
  /** The folders of PATH, in order. */
  pathDirs: string[];
  /** What `lanes` on PATH is now, or null when there is none. */
  lanesOnPath: string | null;
}

export type CliInstallPlan =
  | { kind: 'none'; why: string }
  /** Copy `from` to `to`; `onPath` says whether `to`'s folder is on PATH yet. */
  | { kind: 'copy'; from: string; to: string; onPath: boolean }
  /** Link `to` → `from`, as root after the OS asks for an admin's password. */
  | { kind: 'adminLink'; from: string; to: string };

export const MAC_CLI_LINK = '/usr/local/bin/lanes';

export function cliInstallPlan(f: CliInstallFacts): CliInstallPlan {
  if (!f.packaged) return { kind: 'none', why: 'from a checkout, the command line is `node bin/lanes.js`' };
  if (f.lanesOnPath) return { kind: 'none', why: `\`lanes\` is on PATH already (${f.lanesOnPath})` };
  if (f.platform === 'win32') return { kind: 'none', why: 'the installer puts it on PATH; a terminal opened since then has it' };
  if (f.platform === 'darwin') return { kind: 'adminLink', from: f.bundledCli, to: MAC_CLI_LINK };
  if (f.platform === 'linux' && f.appImage) {
    const bin = path.posix.join(f.home, '.local', 'bin');
    return { kind: 'copy', from: f.bundledCli, to: path.posix.join(bin, 'lanes'), onPath: f.pathDirs.some((d) => path.posix.resolve(d) === bin) };
  }
  if (f.platform === 'linux') return { kind: 'none', why: 'the package puts it at /usr/bin/lanes' };
  return { kind: 'none', why: `nothing to install on ${f.platform}` };
}

/** What to tell the person once the plan has been carried out. */
export function installedWords(plan: CliInstallPlan): string {
  if (plan.kind === 'none') return plan.why;
  if (plan.kind === 'adminLink') return `\`lanes\` is at ${plan.to}: try \`lanes status\` in a new terminal.`;
  const dir = path.posix.dirname(plan.to);
  return plan.onPath
    ? `\`lanes\` is in ${dir}: try \`lanes status\` in a new terminal. Install it again after updating Lanes.`
    : `\`lanes\` is in ${dir}, which is not on your PATH yet: add it in your shell's profile. Install it again after updating Lanes.`;
}

/** A string as an AppleScript literal: the path of an app bundle may hold quotes or backslashes. */
const appleString = (text: string) => `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/**
 * The osascript program for the macOS link: the shell command is built with AppleScript's own
 * `quoted form of`, so no path is ever read by the shell as anything but one word.
 */
export function macAdminScript(plan: Extract<CliInstallPlan, { kind: 'adminLink' }>): string {
  const dir = path.posix.dirname(plan.to);
  return (
    `do shell script "mkdir -p " & quoted form of ${appleString(dir)} & " && ln -sfn " & quoted form of ${appleString(plan.from)} & " " & quoted form of ${appleString(plan.to)}` +
    ' with prompt "Lanes wants to put its command line tool, lanes, on your PATH." with administrator privileges'
  );
}
