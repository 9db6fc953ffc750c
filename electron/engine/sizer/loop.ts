// The always-on loop: when a sizing pass (pass.ts) runs — on every tick, and at once on every
// event that can move its inputs. Events in one turn of the event loop share one pass.
// An engine with nothing to size sleeps: when a pass finds no lane holding work and no worker,
// the tick stops and the machine is no longer read on its cadence, so an idle engine runs no
// timer at all. The next event wakes it: the machine is read first and the pass runs on that
// fresh sample, so the ceiling and the nudge are right from the first pass with work.
import { DueTimer } from '../due-timer.js';

/** What one pass says the loop needs to know. */
export interface PassOutcome {
  /** When a paced shrink is due, or null. */
  wakeAt: number | null;
  /** No lane held work and no worker existed: nothing to size until an event says otherwise. */
  idle: boolean;
}

export interface LoopPorts {
  /** One pass. */
  run(): PassOutcome;
  /** A pass failed: said, and the loop goes on (the next event or tick runs another). */
  failed(error: unknown): void;
  /** Nothing to size: stop reading the machine on its cadence (its event-driven reads go on). */
  sleep(): void;
  /** Something to size again: read the machine now and on its cadence; settles once the read is in. */
  wake(): Promise<unknown>;
}

type State = 'awake' | 'asleep' | 'waking';

/** After a pass for arrived work, work that arrives within this long shares one pass at its end. */
export const ARRIVALS_GAP_MS = 5;

export class SizerLoop {
  private scheduled = false;
  private stopped = false;
  private state: State = 'awake';
  private tick: NodeJS.Timeout | null = null;
  /** A paced shrink due between ticks. */
  private readonly shrinkDue: DueTimer;
  /** When arrived work last asked for a pass, and the pass that gathers what arrives after it. */
  private arrivedAt = -Infinity;
  private arrivals: NodeJS.Timeout | null = null;

  constructor(
    private readonly ports: LoopPorts,
    private readonly tickMs: number,
    private readonly now: () => number,
  ) {
    this.shrinkDue = new DueTimer(() => this.pass(), now, Math.min(1000, tickMs));
  }

  start(): void {
    this.startTicking();
    this.pass();
  }

  /** Something moved: run a pass soon, once, however many events arrive this turn. Asleep, the machine is read first. */
  poke(): void {
    if (this.stopped) return;
    if (this.state !== 'awake') return this.wakeUp();
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (!this.stopped) this.pass();
    });
  }

  /**
   * Work arrived. The first after a quiet spell is sized as any poke, at once (a cold start waits
   * for nothing); what arrives in the ARRIVALS_GAP_MS after it shares one pass at the end of that
   * gap. A client adding one job per request, a thousand a second, paid a whole pass per job, and
   * none of those passes could decide more than the one after it.
   */
  arrived(): void {
    if (this.stopped || this.arrivals) return;
    const since = this.now() - this.arrivedAt;
    if (since >= ARRIVALS_GAP_MS) {
      this.arrivedAt = this.now();
      return this.poke();
    }
    this.arrivals = setTimeout(() => {
      this.arrivals = null;
      this.arrivedAt = this.now();
      // Already a turn of its own: no need to wait for another.
      if (this.state === 'awake') this.pass();
      else this.poke();
    }, ARRIVALS_GAP_MS - since);
    this.arrivals.unref();
  }

  stop(): void {
    this.stopped = true;
    if (this.arrivals) clearTimeout(this.arrivals);
    this.stopTicking();
    this.shrinkDue.stop();
  }

  /**
   * One pass now. Callers that answer with the fleet's new shape run it synchronously. Asleep, it
   * runs on the facts as last read (nothing was sized on them since) and wakes the loop if it
   * found work; while waking, the pass waits for the fresh sample.
   */
  pass(): void {
    if (this.stopped || this.state === 'waking') return;
    let outcome: PassOutcome;
    try {
      outcome = this.ports.run();
    } catch (error) {
      this.ports.failed(error);
      return;
    }
    this.shrinkDue.arm(outcome.wakeAt);
    if (this.state === 'asleep' && !outcome.idle) this.wakeUp();
    else if (this.state === 'awake' && outcome.idle) this.fallAsleep();
  }

  private fallAsleep(): void {
    this.state = 'asleep';
    this.stopTicking();
    this.ports.sleep();
  }

  private wakeUp(): void {
    if (this.state !== 'asleep') return;
    this.state = 'waking';
    const woken = () => {
      if (this.stopped) return;
      this.state = 'awake';
      this.startTicking();
      this.pass();
    };
    this.ports.wake().then(woken, (error: unknown) => {
      // The machine's last facts stand (the watcher keeps them when a read fails); sizing goes on.
      this.ports.failed(error);
      woken();
    });
  }

  private startTicking(): void {
    this.tick ??= setInterval(() => this.pass(), this.tickMs);
    this.tick.unref();
  }

  private stopTicking(): void {
    if (this.tick) clearInterval(this.tick);
    this.tick = null;
  }
}
