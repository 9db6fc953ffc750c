// Where the installed desktop app is, for `lanes open` with no engine running: the app is the
// engine (the standalone `lanes` runs none), so opening it is how the CLI starts one. Pure: the
// places to look, from where this `lanes` is and the platform; the caller checks which exist.
// The standalone `lanes` sits in the app's resources/bin/ (electron-builder.yml), so the app is
// found from it first; then where each platform's installer puts it.
import path from 'node:path';

export interface AppLookup {
  platform: NodeJS.Platform;
  /** This `lanes`: the standalone executable's real path, or null for `node bin/lanes.js`. */
  exe: string | null;
  env: NodeJS.ProcessEnv;
  home: string;
}

/** How to start the app at one place: a program and its arguments. */
export interface AppLaunch {
  where: string;
  command: string;
  args: string[];
}

/** The GUI's executable name (electron-builder.yml: linux and win executableName). */
const GUI = 'lanes-app';

function launchOf(platform: NodeJS.Platform, where: string): AppLaunch {
  // macOS starts a bundle through LaunchServices, which also brings a running one forward.
  return platform === 'darwin' ? { where, command: 'open', args: ['-a', where] } : { where, command: where, args: [] };
}

/** Places to look for the app, best first. LANES_APP (a path) overrides them all. */
export function appPlaces(l: AppLookup): AppLaunch[] {
  const p = l.platform === 'win32' ? path.win32 : path.posix;
  if (l.env.LANES_APP) return [launchOf(l.platform, l.env.LANES_APP)];
  const places: string[] = [];
  if (l.exe) {
    // resources/bin/lanes → the app two folders up (Linux, Windows), or the bundle three up.
    const resources = p.dirname(p.dirname(l.exe));
    if (l.platform === 'darwin') places.push(p.dirname(p.dirname(resources)));
    else places.push(p.join(p.dirname(resources), l.platform === 'win32' ? `${GUI}.exe` : GUI));
  }
  if (l.platform === 'linux') places.push('/opt/Lanes/lanes-app');
  if (l.platform === 'darwin') places.push('/Applications/Lanes.app', p.join(l.home, 'Applications', 'Lanes.app'));
  if (l.platform === 'win32' && l.env.LOCALAPPDATA) places.push(p.join(l.env.LOCALAPPDATA, 'Programs', 'lanes', `${GUI}.exe`));
  // Only an app bundle or the GUI binary: never this `lanes` itself.
  return [...new Set(places)].filter((place) => place !== l.exe).map((place) => launchOf(l.platform, place));
}
