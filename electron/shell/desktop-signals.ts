// Electron's powerMonitor as the engine's machine watcher wants it (engine/machine/facts.ts):
// battery, idle time, thermal state, and the events that move them. The engine never imports
// electron; this adapter is all the desktop adds to what `lanes daemon` sees.
import { powerMonitor } from 'electron';
import type { DesktopEvent, DesktopSignals, ThermalState } from '../engine/machine/facts.js';

const EVENTS: readonly DesktopEvent[] = [
  'on-ac',
  'on-battery',
  'suspend',
  'resume',
  'lock-screen',
  'unlock-screen',
  'thermal-state-change',
  'user-did-become-active',
  'user-did-resign-active',
];

export function desktopSignals(platform: NodeJS.Platform = process.platform): DesktopSignals {
  return {
    onBattery: () => powerMonitor.isOnBatteryPower(),
    idleSeconds: () => powerMonitor.getSystemIdleTime(),
    // Only macOS reports it; elsewhere Electron answers 'unknown' or throws on old versions.
    thermalState: () => (platform === 'darwin' ? (powerMonitor.getCurrentThermalState() as ThermalState) : 'unknown'),
    subscribe(listener) {
      const handlers = EVENTS.map((name) => {
        const handler = () => listener(name);
        powerMonitor.on(name as 'resume', handler);
        return [name, handler] as const;
      });
      return () => {
        for (const [name, handler] of handlers) powerMonitor.removeListener(name as 'resume', handler);
      };
    },
  };
}
