// Ending a job means ending everything it started: its whole process group.
import { spawnSync } from 'node:child_process';

/** 0 asks only whether the group still has a member (a zombie one included). */
export type GroupSignal = 'SIGTERM' | 'SIGKILL' | 0;

/** Signals the process group led by `pgid`. Returns false if it was already gone. */
export function signalGroup(pgid: number, signal: GroupSignal): boolean {
  if (process.platform === 'win32') {
    // Windows has no process groups to signal; taskkill /T walks the tree instead.
    if (signal === 0) return false;
    const r = spawnSync('taskkill', ['/pid', String(pgid), '/T', ...(signal === 'SIGKILL' ? ['/F'] : [])], { stdio: 'ignore' });
    return r.status === 0;
  }
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Between TERM and KILL when a job runs out of time (a shell job, or a persistent command restarted for it). */
export const TIMEOUT_GRACE_MS = 2_000;

/**
 * Ends the group politely: TERM now, KILL after `graceMs` if anything is left (with no grace,
 * KILL at once). Returns the pending KILL's timer, for a caller that learns sooner that all is gone.
 */
export function stopGroup(pgid: number, graceMs: number): NodeJS.Timeout | null {
  if (graceMs <= 0) {
    signalGroup(pgid, 'SIGKILL');
    return null;
  }
  signalGroup(pgid, 'SIGTERM');
  const kill = setTimeout(() => signalGroup(pgid, 'SIGKILL'), graceMs);
  kill.unref();
  return kill;
}
