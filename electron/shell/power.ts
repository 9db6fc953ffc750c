// What the app does when the machine sleeps, wakes or shuts down. Sleep needs no action of ours:
// the OS freezes every worker mid-job and thaws it on wake. Wake means time jumped, so the tray is
// refreshed at once. OS shutdown is a quit with a short grace: whatever cannot finish in a few
// seconds is left queued and runs again on the next start.
export type PowerEvent = 'suspend' | 'resume' | 'shutdown' | 'lock-screen' | 'unlock-screen';
export type PowerAction = { type: 'none' } | { type: 'refresh' } | { type: 'quit'; graceMs: number; holdShutdown: boolean };

export function powerAction(event: PowerEvent, platform: NodeJS.Platform, shutdownGraceMs: number): PowerAction {
  switch (event) {
    case 'resume':
    case 'unlock-screen':
      return { type: 'refresh' };
    case 'shutdown':
      // Electron emits `shutdown` on Linux and macOS; there preventDefault() asks the OS to wait
      // for us while we drain. (On Windows the OS ends the session without asking the app.)
      return { type: 'quit', graceMs: shutdownGraceMs, holdShutdown: platform === 'linux' || platform === 'darwin' };
    case 'suspend':
    case 'lock-screen':
      return { type: 'none' };
  }
}
