// On battery or on the wall, and how full the battery is. In the desktop app Electron's
// powerMonitor says (DesktopSignals); under `lanes daemon` systeminformation asks the OS, which
// costs a file read on Linux but a process or two on macOS and Windows, so it is asked seldom.
import si from 'systeminformation';
import type { MachineFacts } from './facts.js';

export type PowerFact = MachineFacts['power'];

/** A machine without a battery is on the wall; one whose battery cannot be read is 'unknown'. */
export async function readPower(): Promise<PowerFact> {
  try {
    const b = await si.battery();
    if (!b.hasBattery) return { source: 'ac', percent: null, from: 'observed' };
    const percent = Number.isFinite(b.percent) && b.percent >= 0 && b.percent <= 100 ? b.percent : null;
    return { source: b.acConnected ? 'ac' : 'battery', percent, from: 'observed' };
  } catch {
    return { source: 'unknown', percent: null, from: 'observed' };
  }
}
