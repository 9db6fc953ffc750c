// Quitting without losing work: stop taking jobs, let running ones finish within a grace period,
// then stop the workers and exit. Jobs still unfinished are left queued in the store and run
// again on the next start. Electron calls `before-quit` for every quit request (menu, OS,
// second Quit click), so the sequence is a small state machine that starts once.
import { realTimers, type Timers } from './coalesce.js';

export type QuitPhase = 'running' | 'draining' | 'exiting';

export interface QuitDeps {
  /** Show that Lanes is stopping (tray state, hide the window). */
  showStopping(): void;
  /** Stop the API and the engine: no new jobs, running ones get `graceMs`, then workers stop. */
  stopEngine(graceMs: number): Promise<void>;
  /** Cut a drain short: the engine ends running jobs now. */
  stopEngineNow(): Promise<void>;
  /** Remove the tray icon and anything else that would outlive the process visibly. */
  cleanUp(): void;
  exit(code: number): void;
  log(line: string): void;
  timers?: Timers;
}

export const QUIT_GRACE_MS = 20_000;
/** The OS gives little time at shutdown; finish what can finish in a few seconds. */
export const SHUTDOWN_GRACE_MS = 4_000;
/** Past the grace period, how long stopping workers may take before we exit regardless. */
export const STOP_MARGIN_MS = 5_000;
/** "Quit now" waits this long for the engine to end running jobs, then exits regardless. */
export const QUIT_NOW_LIMIT_MS = 2_000;

export class QuitSequence {
  private phaseNow: QuitPhase = 'running';
  private readonly timers: Timers;

  constructor(private readonly deps: QuitDeps) {
    this.timers = deps.timers ?? realTimers;
  }

  get phase(): QuitPhase {
    return this.phaseNow;
  }

  /**
   * For Electron's `before-quit`: true means "prevent this quit" — either the drain starts now
   * or it is already under way. Only `exit()` at the end of the sequence really ends the app.
   */
  onBeforeQuit(graceMs = QUIT_GRACE_MS): boolean {
    if (this.phaseNow === 'exiting') return false;
    if (this.phaseNow === 'running') void this.drain(graceMs);
    return true;
  }

  /** "Quit now" from the menu, or a second Quit during a drain the person does not want to wait for. */
  async now(): Promise<void> {
    if (this.phaseNow === 'exiting') return;
    if (this.phaseNow === 'running') {
      void this.drain(0);
      return;
    }
    this.deps.log('quit: not waiting for running jobs any longer');
    // Bounded: an engine already draining may only finish when its first grace period ends.
    let limit: unknown = null;
    await Promise.race([
      this.deps.stopEngineNow().catch((error: unknown) => this.deps.log(`quit: ${String(error)}`)),
      new Promise<void>((resolve) => {
        limit = this.timers.setTimeout(resolve, QUIT_NOW_LIMIT_MS);
      }),
    ]);
    this.timers.clearTimeout(limit);
    this.finish(0);
  }

  async drain(graceMs: number): Promise<void> {
    if (this.phaseNow !== 'running') return;
    this.phaseNow = 'draining';
    this.deps.showStopping();
    this.deps.log(`quit: draining, grace ${graceMs} ms`);
    let deadline: unknown = null;
    const overdue = new Promise<'overdue'>((resolve) => {
      deadline = this.timers.setTimeout(() => resolve('overdue'), graceMs + STOP_MARGIN_MS);
    });
    let code = 0;
    try {
      const outcome = await Promise.race([this.deps.stopEngine(graceMs).then(() => 'stopped' as const), overdue]);
      if (outcome === 'overdue') {
        this.deps.log('quit: the engine did not stop in time; exiting anyway');
        code = 1;
      }
    } catch (error) {
      this.deps.log(`quit: stopping the engine failed: ${String(error)}`);
      code = 1;
    } finally {
      this.timers.clearTimeout(deadline);
    }
    this.finish(code);
  }

  private finish(code: number): void {
    if (this.phaseNow === 'exiting') return;
    this.phaseNow = 'exiting';
    this.deps.cleanUp();
    this.deps.exit(code);
  }
}
