// One timer for the earliest moment something falls due between ticks (a paced shrink, a nudge
// about to show). Re-arming for the same moment is free; nothing runs while nothing is due, and
// the timer never holds a stopping process open.
/** Node fires a timer set beyond this (about 24.8 days) at once: a later moment is waited for in steps. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

export class DueTimer {
  private timer: NodeJS.Timeout | null = null;
  private at: number | null = null;
  private stopped = false;

  constructor(
    private readonly run: () => void,
    private readonly now: () => number,
    /** Never sooner than this from now: a near-due moment is not worth a timer storm. */
    private readonly minDelayMs = 0,
  ) {}

  arm(at: number | null): void {
    if (at === this.at) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.at = at;
    if (at === null || this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.at = null;
      this.run();
    }, Math.min(LONGEST_TIMER_MS, Math.max(this.minDelayMs, at - this.now())));
    this.timer.unref();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
