// The always-on loop: observe → decide → apply, on every tick and at once on every event that
// can move its inputs. Events in one turn of the event loop share one pass.
import { decide, type Decision, type Observation } from './policy.js';

export interface LoopPorts {
  observe(): Observation;
  apply(decision: Decision): void;
  /** After each pass, with the time the loop will look again on its own. */
  afterPass(observation: Observation): number | null;
}

export class SizerLoop {
  private scheduled = false;
  private stopped = false;
  private tick: NodeJS.Timeout | null = null;
  private wake: NodeJS.Timeout | null = null;
  private wakeAt: number | null = null;
  passes = 0;

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

  pass(): void {
    this.passes++;
    const observation = this.ports.observe();
    const decision = decide(observation);
    this.ports.apply(decision);
    const viewWake = this.ports.afterPass(observation);
    this.armWake([decision.wakeAt, viewWake].filter((t): t is number => t !== null));
  }

  /** Something outside a pass found a moment worth looking again (a nudge coming due). */
  wakeBy(at: number): void {
    if (this.wakeAt === null || at < this.wakeAt) this.armWake([at]);
  }

  /** One timer for the earliest moment something becomes due between ticks. */
  private armWake(times: number[]): void {
    const at = times.length ? Math.min(...times) : null;
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
