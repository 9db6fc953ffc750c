// Engine states for the shell's tests: plain data in the contract's shapes.
import type { LaneStatus, Nudge, Status } from '../../shared/model.js';
import type { ShellState } from '../../electron/shell/shell-state.js';

export function lane(name: string, change: Partial<LaneStatus> = {}): LaneStatus {
  return {
    name,
    class: 'cpu',
    cap: 1,
    workerCommand: null,
    workerCwd: null,
    timeoutMs: null,
    startsBlockedUntil: null,
    delayed: 0,
    waitingForJobs: 0,
    scheduled: 0,
    scheduledNext: null,
    workers: 0,
    busy: 0,
    idle: 0,
    draining: 0,
    waiting: 0,
    running: 0,
    succeeded: 0,
    failed: 0,
    cancelled: 0,
    throughputPerMin: 0,
    medianWaitMs: null,
    oldestQueuedAt: null,
    etaMs: null,
    etaState: 'none',
    workerLoadMs: null,
    nudgeQuietUntil: null,
    mood: 'idle',
    nudge: null,
    workerMemoryBytes: null,
    limit: null,
    ...change,
  };
}

export function nudge(suggestedCap: number, waiting: number, busy = 1, ceiling = 3): Nudge {
  return { text: `raise to ${suggestedCap}`, waiting, busy, ceiling, suggestedCap, estimate: null };
}

export function status(lanes: LaneStatus[], ceiling = 3): Status {
  const machine = { cores: ceiling + 1, coreCeiling: ceiling, memoryBytes: 8 * 2 ** 30, power: 'ac' as const, personActive: null, ceiling, limitedBy: 'cores' as const, text: `${ceiling + 1} cores: ${ceiling} workers, one core kept free` };
  return { seq: 0, ceiling, machine, paused: null, workersInUse: lanes.reduce((n, l) => n + l.workers, 0), dataDir: '/data', pid: 1, startedAt: 0, version: '0.1.0', lanes };
}

export function shell(s: Status | null, change: Partial<ShellState> = {}): ShellState {
  return { status: s, error: null, stopping: false, startAtLogin: false, startAtLoginSupported: true, installCli: false, ...change };
}
