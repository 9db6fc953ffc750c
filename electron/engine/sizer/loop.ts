// The always-on loop: when a sizing pass (pass.ts) runs — on every tick, and at once on every
// event that can move its inputs. Events in one turn of the event loop share one pass.
import { DueTimer } from '../due-timer.js';

export interface LoopPorts {
  /** One pass; returns when a paced shrink is due, or null. */
  run(): number | null;
  /** A pass failed: said, and the loop goes on (the next event or tick runs another). */
  failed(error: unknown): void;
}

export class SizerLoop {
  private scheduled = false;
  private stopped = false;
  private tick: NodeJS.Timeout | null = null;
  /** A paced shrink due between ticks. */
  private readonly wake: DueTimer;

  constructor(
    private readonly ports: LoopPorts,
    private readonly tickMs: number,
    now: () => number,
  ) {
    this.wake = new DueTimer(() => this.pass(), now, Math.min(1000, tickMs));
  }

  start(): void {
    this.tick = setInterval(() => this.pass(), this.tickMs);
    this.tick.unref();
    this.pass();
  }

  /** Something moved: run a pass soon, once, however many events arrive this turn. */
  poke(): void {
    if (this.scheduled || this.stopped) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (!this.stopped) this.pass();
    });
  }

  stop(): void {
    this.stopped = true;
    if (this.tick) clearInterval(this.tick);
    this.wake.stop();
  }

  /** One pass now. Callers that answer with the fleet's new shape run it synchronously. */
  pass(): void {
    if (this.stopped) return;
    try {
      this.wake.arm(this.ports.run());
    } catch (error) {
      this.ports.failed(error);
    }
  }
}
