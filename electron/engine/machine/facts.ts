// The machine as the sizer sees it: plain data, read by the watcher (watcher.ts) and judged by
// the limits policy (limits.ts). Nothing here reads anything; the shapes are the contract between
// the readers, the desktop shell and the policy.
import type { GpuFacts } from './gpu.js';

export type { GpuFacts };

export type PowerSource = 'ac' | 'battery';

/** Electron's powerMonitor thermal states (macOS); 'unknown' everywhere else. */
export type ThermalState = 'unknown' | 'nominal' | 'fair' | 'serious' | 'critical';

export interface MachineFacts {
  /** When these were read, ms since the epoch. */
  at: number;
  cpu: {
    /** Logical cores: what the hardware reports, or LANES_CORES. */
    cores: number;
    /**
     * 'override': LANES_CORES (or the engine's `cores` option) said how many cores Lanes may count
     * on; the container quota and other programs' load then do not move the ceiling.
     */
    coresFrom: 'hardware' | 'override';
    /** CPUs this process may use when fewer than `cores`: its cgroup's quota, or the CPUs it may run on; null when neither binds. */
    quota: number | null;
    /** Cores other programs keep busy (everything but Lanes and its workers), smoothed over about a minute. */
    otherBusy: number;
  };
  memory: {
    /** Bytes: the machine's, or its container's limit if smaller. */
    total: number;
    /** Bytes that can be used without swapping: MemAvailable, or the container's headroom if smaller. */
    available: number;
    /** Bytes Lanes' workers (and all they run) used when this was read: free for them too, since they are theirs. */
    usedByLanes: number;
    /** LANES_MEMORY: what Lanes' workers may use between them; null: a share of what is free. */
    override: number | null;
  };
  power: {
    /** 'unknown' where there is no battery to ask about, or it could not be read. */
    source: PowerSource | 'unknown';
    /** Charge, 0–100, when there is a battery. */
    percent: number | null;
    from: 'observed' | 'override';
  };
  /** Whether someone is at the machine; null where nobody can tell (a headless daemon). */
  person: { idleSeconds: number; locked: boolean } | null;
  thermal: ThermalState;
  /** The GPUs' memory (gpu.ts); absent where it is not known: no nvidia-smi, and not Apple silicon. */
  gpu?: GpuFacts;
}

/** What moves the facts between two reads; the watcher reads again at once on each. */
export type DesktopEvent =
  | 'on-ac'
  | 'on-battery'
  | 'suspend'
  | 'resume'
  | 'lock-screen'
  | 'unlock-screen'
  | 'thermal-state-change'
  | 'user-did-become-active'
  | 'user-did-resign-active';

/**
 * What the desktop shell feeds from Electron's powerMonitor. The engine never imports electron,
 * so the shell adapts powerMonitor to this shape (a few lines; see docs/sizer.md, "The machine").
 * Under `lanes daemon` there is none, and the watcher asks systeminformation for the battery and
 * treats the person as unknown.
 */
export interface DesktopSignals {
  /** powerMonitor.isOnBatteryPower() */
  onBattery(): boolean;
  /** powerMonitor.getSystemIdleTime(): seconds since the last keyboard or mouse input. */
  idleSeconds(): number;
  /** powerMonitor.getCurrentThermalState() on macOS; 'unknown' elsewhere. */
  thermalState(): ThermalState;
  /** Calls `listener` on each powerMonitor event named in DesktopEvent; returns how to stop. */
  subscribe(listener: (event: DesktopEvent) => void): () => void;
}
