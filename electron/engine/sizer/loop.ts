// The always-on loop: observe → decide → apply, on every tick and at once on every event that
// can move its inputs. Events in one turn of the event loop share one pass.
import { decide, type Decision, type Observation } from './policy.js';

export interface LoopPorts {
  observe(): Observation;
  apply(decision: Decision): void;
}

export class SizerLoop {
  private scheduled = false;
  private stopped = false;
  private tick: NodeJS.Timeout | null = null;
  private wake: NodeJS.Timeout | null = null;
  private wakeAt: number | null = null;

  constructor(
    private readonly ports: LoopPorts,
    private readonly tickMs: number,
    private readonly now: () => number,
  ) {}

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
    if (this.wake) clearTimeout(this.wake);
  }

  /** One pass now. Callers that answer with the fleet's new shape run it synchronously. */
  pass(): void {
    if (this.stopped) return;
    const decision = decide(this.ports.observe());
    this.ports.apply(decision);
    this.armWake(decision.wakeAt);
  }

  /** One timer for the moment a paced shrink becomes due between ticks. */
  private armWake(at: number | null): void {
    if (at === this.wakeAt) return;
    if (this.wake) clearTimeout(this.wake);
    this.wake = null;
    this.wakeAt = at;
    if (at === null || this.stopped) return;
    // Never sooner than a second away: a near-due wake is not worth a timer storm.
    this.wake = setTimeout(() => {
      this.wake = null;
      this.wakeAt = null;
      this.pass();
    }, Math.max(Math.min(1000, this.tickMs), at - this.now()));
    this.wake.unref();
  }
}
