// A worker that stops answering is killed and replaced. Pings run only while workers exist,
// so an idle engine has no timer.
import type { Pool, WorkerRecord } from './pool.js';

export class Heartbeat {
  private timer: NodeJS.Timeout | null = null;
  private n = 0;
  private lastBeat = 0;

  constructor(
    private readonly pool: Pool,
    private readonly everyMs: number,
    private readonly now: () => number,
    private readonly onSilent: (w: WorkerRecord) => void,
  ) {}

  /** Call whenever the fleet changes: arms or disarms the timer. */
  update(): void {
    if (this.pool.workers.size > 0 && !this.timer) {
      this.lastBeat = this.now();
      this.timer = setInterval(() => this.beat(), this.everyMs);
      this.timer.unref();
    } else if (this.pool.workers.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private beat(): void {
    const now = this.now();
    const n = ++this.n;
    // A beat far later than planned means the machine slept (or this process was starved):
    // silence over that gap says nothing about the workers, so start counting afresh.
    const slept = this.lastBeat !== 0 && now - this.lastBeat > 2 * this.everyMs;
    this.lastBeat = now;
    for (const w of this.pool.workers.values()) {
      if (slept) w.lastHeard = now;
      // Three missed answers in a row: it is hung, not busy (a busy worker still answers).
      if (now - w.lastHeard > 3 * this.everyMs) this.onSilent(w);
      else w.proc.send({ t: 'ping', n });
    }
  }
}
