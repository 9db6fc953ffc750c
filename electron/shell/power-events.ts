// Sleep, wake and OS shutdown, routed through the pure powerAction table.
import { powerMonitor } from 'electron';
import { powerAction, type PowerEvent } from './power.js';

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
