// Apps opened from the Finder or the Dock on macOS get launchd's bare PATH
// (/usr/bin:/bin:/usr/sbin:/sbin), not the one the person's shell sets up. Jobs inherit the app's
// environment, so `lanes add -- python train.py` would work under `lanes daemon` in a terminal
// and fail with "command not found" under the tray app. At start we ask the person's login shell
// for its PATH once (bounded in time) and put it in front of ours.
import { execFile } from 'node:child_process';

const MARK = '__LANES_PATH__';

/** The PATH between the markers in a shell's output; shells may print greetings around it. */
export function pathFromShellOutput(output: string): string | null {
  const start = output.indexOf(MARK);
  const end = output.indexOf(MARK, start + MARK.length);
  if (start < 0 || end < 0) return null;
  const value = output.slice(start + MARK.length, end).trim();
  return value.length > 0 ? value : null;
}

/** The shell's entries first, then any of ours it lacks, each once. */
export function mergePath(shellPath: string, currentPath: string | undefined, delimiter = ':'): string {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const entry of [...shellPath.split(delimiter), ...(currentPath ?? '').split(delimiter)]) {
    if (entry && !seen.has(entry)) {
      seen.add(entry);
      out.push(entry);
    }
  }
  return out.join(delimiter);
}

export function loginShellPath(shell = process.env.SHELL || '/bin/zsh', timeoutMs = 3_000): Promise<string | null> {
  return new Promise((resolve) => {
    // -i and -l: read the files people put PATH in (.zprofile, .zshrc, .bash_profile, …).
    execFile(shell, ['-ilc', `printf '%s%s%s' '${MARK}' "$PATH" '${MARK}'`], { timeout: timeoutMs, encoding: 'utf8' }, (error, stdout) => {
      resolve(error ? null : pathFromShellOutput(stdout));
    });
  });
}

/** Before the engine starts any worker. Only for a packaged app on macOS, where it matters. */
export async function adoptLoginShellPath(options: { platform: NodeJS.Platform; packaged: boolean; log: (line: string) => void }): Promise<void> {
  if (options.platform !== 'darwin' || !options.packaged) return;
  const shellPath = await loginShellPath();
  if (!shellPath) {
    options.log('env: could not read PATH from the login shell; jobs get the system PATH');
    return;
  }
  process.env.PATH = mergePath(shellPath, process.env.PATH);
}
