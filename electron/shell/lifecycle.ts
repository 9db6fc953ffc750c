// The app's life among other processes and the OS: one instance per person, and what sleep,
// wake and shutdown mean for running work (the decisions are in power.ts, tested under Node).
import { app, powerMonitor } from 'electron';
import { powerAction, type PowerEvent } from './power.js';

/**
 * One Lanes per person: the engine holds its data directory's lock, so a second app could only
 * fail. A second launch (clicking the icon again, a login start after a manual one) asks the
 * first to show its window instead. False when another instance runs: then quit at once.
 */
export function claimSingleInstance(onSecondLaunch: (argv: string[]) => void): boolean {
  if (!app.requestSingleInstanceLock()) return false;
  app.on('second-instance', (_event, argv) => onSecondLaunch(argv));
  return true;
}

export function setupPowerEvents(options: {
  refresh: () => void;
  /** Start the quit sequence with this grace period. */
  quit: (graceMs: number) => void;
  shutdownGraceMs: number;
  log: (line: string) => void;
}): void {
  const events: PowerEvent[] = ['suspend', 'resume', 'lock-screen', 'unlock-screen'];
  for (const name of events) {
    powerMonitor.on(name as 'suspend', () => {
      options.log(`power: ${name}`);
      const action = powerAction(name, process.platform, options.shutdownGraceMs);
      if (action.type === 'refresh') options.refresh();
    });
  }
  // The typings declare no argument, but Electron passes an event whose preventDefault() asks the
  // OS to wait for us (documented on the same event).
  powerMonitor.on('shutdown', (...args: unknown[]) => {
    options.log('power: shutdown');
    const action = powerAction('shutdown', process.platform, options.shutdownGraceMs);
    if (action.type !== 'quit') return;
    const event = args[0] as { preventDefault?: () => void } | undefined;
    if (action.holdShutdown) event?.preventDefault?.();
    options.quit(action.graceMs);
  });
}
